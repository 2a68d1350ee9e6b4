import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { Environment } from '../infrastructure/config/environment.js';
import { readForm } from '../infrastructure/http/forms.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import {
  filterFlag,
  filterId,
  filterText,
  listAnswer,
  reactAdminList,
} from '../infrastructure/http/react-admin.js';
import { UNKNOWN_FIELD_MESSAGE } from '../infrastructure/http/validation.js';
import { toCsv } from '../rules/csv.js';
import {
  FEED_FORMATS,
  FEED_POSTBACK,
  FEED_RUN_STATUSES,
  FEED_SOURCE_MESSAGES as M,
  FEED_RUN_MESSAGES as R,
} from '../rules/feeds.js';
import { AcceptFeedRun, DiscardFeedRun, RequestFeedRun } from './commands/feed-runs.js';
import {
  CreateFeedSource,
  DeleteFeedSource,
  RotateFeedPostbackSecret,
  UpdateFeedSource,
} from './commands/feed-sources.js';
import { FeedSourceChangesDto, FeedSourceDto } from './dto/feed-source.dto.js';
import type { FeedSourceRecordAnswer } from './queries/answers.js';
import { FEED_RUN_SORTS, feedRun, feedRunPage, feedRunRejections } from './queries/runs.js';
import { FEED_SOURCE_SORTS, feedSource, feedSourcePage } from './queries/sources.js';

/** The address a source's network calls, its secret as the `token` parameter. */
export const feedPostbackUrl = (apiUrl: string, sourceId: number, secret: string) =>
  `${apiUrl.replace(/\/$/, '')}${FEED_POSTBACK.path(sourceId)}?${FEED_POSTBACK.tokenParam}=${encodeURIComponent(secret)}`;

const FEED_SOURCE_LIST = reactAdminList('feed-sources', FEED_SOURCE_SORTS, 'name', 'ASC');

const FEED_RUN_LIST = reactAdminList('feed-runs', FEED_RUN_SORTS, 'id', 'DESC');

/**
 * Feed sources, a react-admin REST resource: coupons from affiliate networks' feeds. Each change
 * is a command recording its event; a source's credential is written here and never read back.
 */
@ApiTags('admin feeds')
@Controller('admin/feed-sources')
export class AdminFeedSourcesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listAnswer(query, reply, FEED_SOURCE_LIST, (page) =>
      feedSourcePage(this.dataSource, page, {
        enabled: filterFlag(page.filter, 'enabled'),
        format: filterText(page.filter, 'format', { allowed: FEED_FORMATS }),
        q: filterText(page.filter, 'q'),
      }),
    );
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number): Promise<FeedSourceRecordAnswer> {
    const source = await feedSource(this.dataSource, id);
    if (!source) throw new NotFoundException({ statusCode: 404, message: M.notFound });
    return { ...source, postbackUrl: feedPostbackUrl(this.environment.API_URL, id, source.postbackSecret) };
  }

  @Post()
  async create(@Body() body: FeedSourceDto) {
    const { id } = await this.commands.execute(new CreateFeedSource(body));
    return this.one(id);
  }

  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: FeedSourceChangesDto) {
    await this.commands.execute(new UpdateFeedSource(id, body));
    return this.one(id);
  }

  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    const source = await this.one(id);
    await this.commands.execute(new DeleteFeedSource(id));
    return source;
  }

  /** A new secret for the network's postbacks; the old one stops working at once. */
  @Post(':id/postback-secret/rotate')
  @HttpCode(200)
  async rotatePostbackSecret(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new RotateFeedPostbackSecret(id));
    return this.one(id);
  }

  /**
   * Runs the source now: its address is fetched, or the feed comes as a multipart `file` (gzip
   * or not, at most FEED_UPLOAD_MAX_MB), required for a source without an address. Answers the
   * queued run (202): the import follows in the workers.
   */
  @Post(':id/runs')
  @HttpCode(202)
  @ApiConsumes('multipart/form-data', 'application/json')
  async requestRun(@Param('id', IdPipe) id: number, @Req() request: FastifyRequest) {
    const { fields, files } = await readForm(
      request,
      ['file'],
      this.environment.FEED_UPLOAD_MAX_MB * 1048576,
    );
    const unknown = Object.keys(fields);
    if (unknown.length > 0) {
      throw new BadRequestException({
        statusCode: 400,
        message: UNKNOWN_FIELD_MESSAGE,
        errors: Object.fromEntries(unknown.map((field) => [field, [UNKNOWN_FIELD_MESSAGE]])),
      });
    }
    const { id: runId } = await this.commands.execute(new RequestFeedRun(id, files.file));
    return feedRun(this.dataSource, runId);
  }
}

/** The runs of feed sources (react-admin list, newest first), their rejected rows and decisions. */
@ApiTags('admin feeds')
@Controller('admin/feed-runs')
export class AdminFeedRunsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listAnswer(query, reply, FEED_RUN_LIST, (page) =>
      feedRunPage(this.dataSource, page, {
        sourceId: filterId(page.filter, 'sourceId'),
        status: filterText(page.filter, 'status', { allowed: FEED_RUN_STATUSES }),
      }),
    );
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const run = await feedRun(this.dataSource, id);
    if (!run) throw new NotFoundException({ statusCode: 404, message: R.notFound });
    return run;
  }

  /** Every rejected row of the run: line, row id, reason, message (cells safe for spreadsheets). */
  @Get(':id/rejections.csv')
  async rejections(@Param('id', IdPipe) id: number, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.one(id);
    const rows = await feedRunRejections(this.dataSource, id);
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="feed-run-${id}-rejections.csv"`);
    // The byte order mark makes spreadsheet programs read Hindi and Telugu text as UTF-8.
    return `\ufeff${toCsv(
      rows.map((row) => ({ line: row.line, rowId: row.rowId, reason: row.reason, message: row.message })),
      ['line', 'rowId', 'reason', 'message'],
    )}\r\n`;
  }

  @Post(':id/accept')
  @HttpCode(200)
  async accept(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new AcceptFeedRun(id));
    return this.one(id);
  }

  @Post(':id/discard')
  @HttpCode(200)
  async discard(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new DiscardFeedRun(id));
    return this.one(id);
  }
}
