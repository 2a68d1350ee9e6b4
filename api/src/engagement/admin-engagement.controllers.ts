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
import { type ListRequest, parseListRequest, sendRange } from '../http/react-admin.js';
import { LANGUAGES } from '../rules/engagement.js';
import { DeleteCampaign, SaveCampaign, SendCampaign } from './commands/campaigns.js';
import { MarkContactMessageHandled } from './commands/contact.js';
import { CampaignChangesDto, CampaignDto, ContactMessageChangesDto } from './dto/engagement.dto.js';
import {
  CAMPAIGN_SORTS,
  CAMPAIGN_STATUSES,
  CONTACT_MESSAGE_SORTS,
  campaignById,
  campaignsPage,
  contactMessageById,
  contactMessagesPage,
  DEV_MAIL_SORTS,
  devMailById,
  devMailsPage,
  type RecordsPage,
  SUBSCRIBER_SORTS,
  SUBSCRIBER_STATUSES,
  subscriberById,
  subscribersPage,
} from './queries/admin-records.js';

/** Rows a list answers when react-admin asks for no range. */
const PER_PAGE = 25;

const oneOf =
  <T extends string>(allowed: readonly T[]) =>
  (value: unknown) =>
    typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const aBoolean = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
const searchText = (page: ListRequest<string>) =>
  typeof page.filter.q === 'string' ? page.filter.q : undefined;

/** The rows of a page, after the `Content-Range` react-admin reads the total from. */
function sendPage<R>(
  reply: FastifyReply,
  resource: string,
  page: ListRequest<string>,
  { rows, total }: RecordsPage<R>,
) {
  sendRange(reply, resource, page.offset, rows.length, total);
  return rows;
}

@ApiTags('admin')
@Controller('admin/contact-messages')
export class AdminContactMessagesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, CONTACT_MESSAGE_SORTS, {
      sortField: 'receivedAt',
      order: 'DESC',
      perPage: PER_PAGE,
    });
    const filter = { q: searchText(page), handled: aBoolean(page.filter.handled) };
    const found = await contactMessagesPage(this.dataSource, page, filter);
    return sendPage(reply, 'contact-messages', page, found);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const message = await contactMessageById(this.dataSource, id);
    if (!message) throw new NotFoundException({ statusCode: 404, message: 'Contact message not found.' });
    return message;
  }

  @Put(':id')
  async markHandled(@Param('id', IdPipe) id: number, @Body() body: ContactMessageChangesDto) {
    await this.commands.execute(new MarkContactMessageHandled(id, body.handled));
    return this.one(id);
  }
}

/** Newsletter campaigns: drafts edited freely; sending fans out to the confirmed subscribers. */
@ApiTags('admin')
@Controller('admin/campaigns')
export class AdminCampaignsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, CAMPAIGN_SORTS, {
      sortField: 'createdAt',
      order: 'DESC',
      perPage: PER_PAGE,
    });
    const filter = { q: searchText(page), status: oneOf(CAMPAIGN_STATUSES)(page.filter.status) };
    const found = await campaignsPage(this.dataSource, page, filter);
    return sendPage(reply, 'campaigns', page, found);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const campaign = await campaignById(this.dataSource, id);
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

@ApiTags('admin')
@Controller('admin/subscribers')
export class AdminSubscribersController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, SUBSCRIBER_SORTS, {
      sortField: 'createdAt',
      order: 'DESC',
      perPage: PER_PAGE,
    });
    const filter = {
      q: searchText(page),
      status: oneOf(SUBSCRIBER_STATUSES)(page.filter.status),
      language: oneOf(LANGUAGES)(page.filter.language),
    };
    const found = await subscribersPage(this.dataSource, page, filter);
    return sendPage(reply, 'subscribers', page, found);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const subscriber = await subscriberById(this.dataSource, id);
    if (!subscriber) throw new NotFoundException({ statusCode: 404, message: 'Subscriber not found.' });
    return subscriber;
  }
}

/** What the development mail catcher received (empty where a real SMTP server is used). */
@ApiTags('admin')
@Controller('admin/dev-mailbox')
export class AdminDevMailboxController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, DEV_MAIL_SORTS, {
      sortField: 'date',
      order: 'DESC',
      perPage: PER_PAGE,
    });
    const found = await devMailsPage(this.dataSource, page, { q: searchText(page) });
    return sendPage(reply, 'dev-mailbox', page, found);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const mail = await devMailById(this.dataSource, id);
    if (!mail) throw new NotFoundException({ statusCode: 404, message: 'Mail not found.' });
    return mail;
  }
}
