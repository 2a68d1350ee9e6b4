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
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { type ListRequest, listAnswer } from '../infrastructure/http/react-admin.js';
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

/** An engagement list: newest first unless asked otherwise, PER_PAGE rows a page. */
const newestFirst = <F extends string>(resource: string, sortable: readonly F[], sortField: F) => ({
  resource,
  sortable,
  defaults: { sortField, order: 'DESC' as const, perPage: PER_PAGE },
});

@ApiTags('admin')
@Controller('admin/contact-messages')
export class AdminContactMessagesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = newestFirst('contact-messages', CONTACT_MESSAGE_SORTS, 'receivedAt');
    return listAnswer(query, reply, list, (page) =>
      contactMessagesPage(this.dataSource, page, {
        q: searchText(page),
        handled: aBoolean(page.filter.handled),
      }),
    );
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
    const list = newestFirst('campaigns', CAMPAIGN_SORTS, 'createdAt');
    return listAnswer(query, reply, list, (page) =>
      campaignsPage(this.dataSource, page, {
        q: searchText(page),
        status: oneOf(CAMPAIGN_STATUSES)(page.filter.status),
      }),
    );
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
    const list = newestFirst('subscribers', SUBSCRIBER_SORTS, 'createdAt');
    return listAnswer(query, reply, list, (page) =>
      subscribersPage(this.dataSource, page, {
        q: searchText(page),
        status: oneOf(SUBSCRIBER_STATUSES)(page.filter.status),
        language: oneOf(LANGUAGES)(page.filter.language),
      }),
    );
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
    const list = newestFirst('dev-mailbox', DEV_MAIL_SORTS, 'date');
    return listAnswer(query, reply, list, (page) =>
      devMailsPage(this.dataSource, page, { q: searchText(page) }),
    );
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const mail = await devMailById(this.dataSource, id);
    if (!mail) throw new NotFoundException({ statusCode: 404, message: 'Mail not found.' });
    return mail;
  }
}
