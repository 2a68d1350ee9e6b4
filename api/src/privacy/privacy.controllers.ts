import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { personToDescribe } from '../identity/queries/person-data.js';
import { adminNames } from '../identity/queries/profiles.js';
import {
  type AccountRequest,
  CurrentAccount,
  CurrentMerchantId,
  Public,
} from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { preferredLanguage } from '../infrastructure/http/languages.js';
import { RateLimits } from '../infrastructure/http/rate-limits.js';
import { filterText, listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import {
  DATA_EXPORT,
  DATA_REQUEST_KINDS,
  type DataRequestKind,
  GRIEVANCE_ANSWER,
  GRIEVANCE_FORM,
  GRIEVANCE_STATES,
  type GrievanceState,
} from '../rules/privacy.js';
import { RecordDataExport } from './commands/data-export.js';
import { AnswerGrievance, FileGrievance } from './commands/grievances.js';
import { GrievanceAnswerDto, GrievanceDto } from './dto/privacy.dto.js';
import { exportPersonData, summaryOf } from './exporters.js';
import type { DataRequestLogEntry, PersonDataExport, PersonDataSummary } from './queries/answers.js';
import { dataRequestLog } from './queries/data-requests.js';
import { GRIEVANCE_SORTS, grievanceById, grievancesPage } from './queries/grievances.js';

type Person = { kind: 'shopper' | 'merchant'; id: number };

/** "Your data": the summary and the download, for shoppers (`/api/me`) and merchants (`/api/merchant`). */
abstract class PersonDataController {
  constructor(
    protected readonly commands: CommandBus,
    protected readonly dataSource: DataSource,
    protected readonly limits: RateLimits,
  ) {}

  protected async summary(person: Person): Promise<PersonDataSummary> {
    return summaryOf(await this.collect(person));
  }

  /**
   * The whole copy as a JSON file: never stored by a browser or a proxy, counted per account and
   * per address (each builds every section), and logged as a data request.
   */
  protected async download(person: Person, address: string, reply: FastifyReply): Promise<PersonDataExport> {
    await this.limits.consumeForAccount('dataExport', `${person.kind}:${person.id}`);
    await this.limits.consume('dataExport', address);
    const exported = await this.collect(person);
    await this.commands.execute(
      new RecordDataExport(
        person,
        Object.fromEntries(exported.sections.map((section) => [section.section, section.records.length])),
      ),
    );
    reply
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        `attachment; filename="${DATA_EXPORT.fileName(exported.generatedAt.slice(0, 10))}"`,
      );
    return exported;
  }

  private async collect(person: Person): Promise<PersonDataExport> {
    const described = await personToDescribe(this.dataSource, person.kind, person.id);
    if (!described) throw new NotFoundException({ statusCode: 404, message: 'Account not found.' });
    return exportPersonData(this.dataSource, described);
  }
}

@ApiTags('me')
@Controller('me')
export class ShopperDataController extends PersonDataController {
  constructor(commands: CommandBus, @InjectDataSource() dataSource: DataSource, limits: RateLimits) {
    super(commands, dataSource, limits);
  }

  @Get('data')
  async shopperSummary(
    @CurrentAccount() account: SignedInAccount,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    reply.header('cache-control', 'private, no-store');
    return this.summary({ kind: 'shopper', id: account.id });
  }

  @Get('data-export')
  shopperExport(
    @CurrentAccount() account: SignedInAccount,
    @Req() request: AccountRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.download({ kind: 'shopper', id: account.id }, request.ip, reply);
  }
}

@ApiTags('merchant')
@Controller('merchant')
export class MerchantDataController extends PersonDataController {
  constructor(commands: CommandBus, @InjectDataSource() dataSource: DataSource, limits: RateLimits) {
    super(commands, dataSource, limits);
  }

  @Get('data')
  async merchantSummary(
    @CurrentMerchantId() merchantId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    reply.header('cache-control', 'private, no-store');
    return this.summary({ kind: 'merchant', id: merchantId });
  }

  @Get('data-export')
  merchantExport(
    @CurrentMerchantId() merchantId: number,
    @Req() request: AccountRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.download({ kind: 'merchant', id: merchantId }, request.ip, reply);
  }
}

/** The public grievance form: anyone may file, signed in or not; the account is noted when signed in. */
@ApiTags('privacy')
@Controller('grievances')
export class GrievancesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly limits: RateLimits,
  ) {}

  @Public()
  @Post()
  async file(
    @Body() form: GrievanceDto,
    @Req() request: AccountRequest,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
    await this.limits.consume('grievance', request.ip);
    const account = request.account;
    const person: Person | undefined =
      account?.role === 'user'
        ? { kind: 'shopper', id: account.id }
        : account?.role === 'merchant'
          ? { kind: 'merchant', id: account.id }
          : undefined;
    const { reference, dueAt } = await this.commands.execute(
      new FileGrievance(form, form.language ?? preferredLanguage(acceptLanguage), person),
    );
    return { reference, dueAt: dueAt.toISOString(), message: GRIEVANCE_FORM.filed };
  }
}

const GRIEVANCE_LIST = reactAdminList('grievances', GRIEVANCE_SORTS, 'dueAt', 'ASC');

/** The admins' queue of grievances: soonest due first, each answered once, by mail. */
@ApiTags('admin')
@Controller('admin/grievances')
export class AdminGrievancesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listAnswer(query, reply, GRIEVANCE_LIST, (page) =>
      grievancesPage(
        this.dataSource,
        page,
        {
          state: filterText(page.filter, 'state', { allowed: GRIEVANCE_STATES }) as
            | GrievanceState
            | undefined,
          q: filterText(page.filter, 'q'),
        },
        adminNames,
      ),
    );
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const grievance = await grievanceById(this.dataSource, id, adminNames);
    if (!grievance) throw new NotFoundException({ statusCode: 404, message: GRIEVANCE_ANSWER.notFound });
    return grievance;
  }

  @Post(':id/answer')
  @HttpCode(200)
  async answer(
    @Param('id', IdPipe) id: number,
    @Body() body: GrievanceAnswerDto,
    @CurrentAccount() admin: SignedInAccount,
  ) {
    await this.commands.execute(new AnswerGrievance(id, body.answer, admin.id));
    return this.one(id);
  }
}

const DATA_REQUEST_LIST = reactAdminList('data-requests', ['actedAt'] as const, 'actedAt', 'DESC');

/** The log of data requests: exports, deletions and grievances, who acted and when, newest first. */
@ApiTags('admin')
@Controller('admin/data-requests')
export class AdminDataRequestsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  list(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataRequestLogEntry[]> {
    return listAnswer(query, reply, DATA_REQUEST_LIST, async (page) => {
      const kind = filterText(page.filter, 'kind', { allowed: DATA_REQUEST_KINDS }) as
        | DataRequestKind
        | undefined;
      const { rows, total } = await dataRequestLog(this.dataSource, {
        kind,
        offset: page.offset,
        limit: page.limit,
      });
      const names = await adminNames(this.dataSource, [
        ...new Set(rows.flatMap((row) => (row.adminId === null ? [] : [row.adminId]))),
      ]);
      return {
        total,
        rows: rows.map((row) => ({
          ...row,
          actedAt: new Date(row.actedAt).toISOString(),
          adminName: row.adminId === null ? null : (names.get(row.adminId) ?? null),
        })),
      };
    });
  }
}
