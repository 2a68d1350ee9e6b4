import {
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
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { IdPipe } from '../http/id-pipe.js';
import { parseListRequest, sendRange, sqlOrder } from '../http/react-admin.js';
import { DeleteCampaign, SaveCampaign, SendCampaign } from './commands/campaigns.js';
import { MarkContactMessageHandled } from './commands/contact.js';
import { CampaignChangesDto, CampaignDto, ContactMessageChangesDto } from './dto/engagement.dto.js';

/**
 * A react-admin list over one table: sortable columns map to SQL columns, `filter.q` searches
 * the given text columns and other filters match exactly.
 */
async function listRecords(
  dataSource: DataSource,
  reply: FastifyReply,
  resource: string,
  query: Record<string, unknown>,
  spec: {
    select: string;
    from: string;
    columns: Record<string, string>;
    defaultSort: string;
    order: 'ASC' | 'DESC';
    search?: string[];
    exact?: Record<string, (value: unknown) => unknown>;
  },
) {
  const page = parseListRequest(query, Object.keys(spec.columns), {
    sortField: spec.defaultSort,
    order: spec.order,
    perPage: 25,
  });
  const where: string[] = [];
  const values: unknown[] = [];
  const q = page.filter.q;
  if (typeof q === 'string' && q.trim() && spec.search) {
    values.push(`%${q.trim().replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(${spec.search.map((column) => `${column} ILIKE $${values.length}`).join(' OR ')})`);
  }
  for (const [field, convert] of Object.entries(spec.exact ?? {})) {
    const value = convert(page.filter[field]);
    if (value === undefined) continue;
    values.push(value);
    where.push(`${spec.columns[field]} = $${values.length}`);
  }
  const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  // One snapshot for the page and its total, so Content-Range agrees with the rows.
  const { total, rows } = await dataSource.transaction('REPEATABLE READ', async (manager) => {
    const [counted] = await manager.query(
      `SELECT count(*)::int AS total FROM ${spec.from} ${condition}`,
      values,
    );
    const found: unknown[] = await manager.query(
      `SELECT ${spec.select} FROM ${spec.from} ${condition}
       ORDER BY ${sqlOrder(page, spec.columns[page.sortField]!)} LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    );
    return { total: counted.total as number, rows: found };
  });
  sendRange(reply, resource, page.offset, rows.length, total);
  return rows;
}

const oneOf =
  (...allowed: string[]) =>
  (value: unknown) =>
    typeof value === 'string' && allowed.includes(value) ? value : undefined;
const aBoolean = (value: unknown) => (typeof value === 'boolean' ? value : undefined);

const CONTACT_MESSAGE = `id, name, email, mobile, message AS msg, handled, handled_at AS "handledAt",
                         received_at AS "receivedAt"`;

@ApiTags('admin')
@Controller('admin/contact-messages')
export class AdminContactMessagesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listRecords(this.dataSource, reply, 'contact-messages', query, {
      select: CONTACT_MESSAGE,
      from: 'contact_messages',
      columns: { id: 'id', receivedAt: 'received_at', handled: 'handled', name: 'name', email: 'email' },
      defaultSort: 'receivedAt',
      order: 'DESC',
      search: ['name', 'email', 'message'],
      exact: { handled: aBoolean },
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [message] = await this.dataSource.query(
      `SELECT ${CONTACT_MESSAGE} FROM contact_messages WHERE id = $1`,
      [id],
    );
    if (!message) throw new NotFoundException({ statusCode: 404, message: 'Contact message not found.' });
    return message;
  }

  @Put(':id')
  async markHandled(@Param('id', IdPipe) id: number, @Body() body: ContactMessageChangesDto) {
    await this.commands.execute(new MarkContactMessageHandled(id, body.handled));
    return this.one(id);
  }
}

const CAMPAIGN = `id, subject, body, featured_coupon_ids AS "featuredCouponIds", status,
                  recipients_total AS "recipientsTotal", sent_count AS "sentCount", skipped_count AS "skippedCount",
                  json_build_object('sent', sent_count, 'skipped', skipped_count, 'total', recipients_total) AS progress,
                  send_started_at AS "sendStartedAt", sent_at AS "sentAt", created_at AS "createdAt"`;

/** Newsletter campaigns: drafts edited freely; sending fans out to the confirmed subscribers. */
@ApiTags('admin')
@Controller('admin/campaigns')
export class AdminCampaignsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listRecords(this.dataSource, reply, 'campaigns', query, {
      select: CAMPAIGN,
      from: 'campaigns',
      columns: { id: 'id', createdAt: 'created_at', subject: 'subject', status: 'status', sentAt: 'sent_at' },
      defaultSort: 'createdAt',
      order: 'DESC',
      search: ['subject'],
      exact: { status: oneOf('draft', 'sending', 'sent') },
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [campaign] = await this.dataSource.query(`SELECT ${CAMPAIGN} FROM campaigns WHERE id = $1`, [id]);
    if (!campaign) throw new NotFoundException({ statusCode: 404, message: 'Campaign not found.' });
    return campaign;
  }

  @Post()
  async create(@Body() body: CampaignDto) {
    const { id } = await this.commands.execute(new SaveCampaign(undefined, body));
    return this.one(id);
  }

  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: CampaignChangesDto) {
    await this.commands.execute(new SaveCampaign(id, body));
    return this.one(id);
  }

  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    const campaign = await this.one(id);
    await this.commands.execute(new DeleteCampaign(id));
    return campaign;
  }

  /** Starts sending (or resumes a campaign that is sending); progress is in the record. */
  @Post(':id/send')
  @HttpCode(202)
  async send(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new SendCampaign(id));
    return this.one(id);
  }
}

const SUBSCRIBER = `id, email, language, status, confirmation_sent_at AS "confirmationSentAt",
                    confirmed_at AS "confirmedAt", unsubscribed_at AS "unsubscribedAt", created_at AS "createdAt"`;

@ApiTags('admin')
@Controller('admin/subscribers')
export class AdminSubscribersController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listRecords(this.dataSource, reply, 'subscribers', query, {
      select: SUBSCRIBER,
      from: 'newsletter_subscribers',
      columns: {
        id: 'id',
        createdAt: 'created_at',
        email: 'email',
        status: 'status',
        confirmedAt: 'confirmed_at',
      },
      defaultSort: 'createdAt',
      order: 'DESC',
      search: ['email'],
      exact: { status: oneOf('pending', 'confirmed', 'unsubscribed'), language: oneOf('en', 'hi', 'te') },
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [subscriber] = await this.dataSource.query(
      `SELECT ${SUBSCRIBER} FROM newsletter_subscribers WHERE id = $1`,
      [id],
    );
    if (!subscriber) throw new NotFoundException({ statusCode: 404, message: 'Subscriber not found.' });
    return subscriber;
  }
}

const DEV_MAIL = `id, sender AS "from", recipients AS "to", subject, received_at AS date, text_body AS text,
                  html_body AS html`;

/** What the development mail catcher received (empty where a real SMTP server is used). */
@ApiTags('admin')
@Controller('admin/dev-mailbox')
export class AdminDevMailboxController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listRecords(this.dataSource, reply, 'dev-mailbox', query, {
      select: DEV_MAIL,
      from: 'dev_mailbox',
      columns: { id: 'id', date: 'received_at', to: 'recipients', subject: 'subject' },
      defaultSort: 'date',
      order: 'DESC',
      search: ['recipients', 'subject'],
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [mail] = await this.dataSource.query(`SELECT ${DEV_MAIL} FROM dev_mailbox WHERE id = $1`, [id]);
    if (!mail) throw new NotFoundException({ statusCode: 404, message: 'Mail not found.' });
    return mail;
  }
}
