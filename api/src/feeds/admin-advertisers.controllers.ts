import {
  BadRequestException,
  Body,
  Controller,
  Get,
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
import { validateForm } from '../http/forms.js';
import { IdPipe } from '../http/id-pipe.js';
import { parseListRequest, sendRange } from '../http/react-admin.js';
import { readFormWithImages } from '../media/image-forms.js';
import { FEED_ADVERTISER_MESSAGES as M } from '../rules/feeds.js';
import { CreateFeedAdvertiserStore, MapFeedAdvertiser, MapFeedCategory } from './commands/advertisers.js';
import {
  FeedAdvertiserMappingDto,
  FeedAdvertiserStoreDto,
  FeedCategoryMappingDto,
} from './dto/feed-advertiser.dto.js';
import {
  FEED_ADVERTISER_SORTS,
  FEED_CATEGORY_SORTS,
  feedAdvertiser,
  feedAdvertiserPage,
  feedCategory,
  feedCategoryPage,
} from './queries/advertisers.js';

function badFilter(name: string): never {
  throw new BadRequestException({ statusCode: 400, message: `The filter ${name} is not valid.` });
}

function filterFlag(filter: Record<string, unknown>, name: string) {
  const value = filter[name];
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return badFilter(name);
}

function filterId(filter: Record<string, unknown>, name: string) {
  const value = filter[name];
  if (value === undefined) return undefined;
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 2_147_483_647) badFilter(name);
  return id as number;
}

function filterText(filter: Record<string, unknown>, name: string) {
  const value = filter[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 200) badFilter(name);
  return value;
}

/**
 * Networks' advertisers (react-admin REST): the queue of those not mapped to a store yet
 * (`filter={"mapped":false}`), each mapped to an existing store or to one created for it.
 */
@ApiTags('admin feeds')
@Controller('admin/feed-advertisers')
export class AdminFeedAdvertisersController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, FEED_ADVERTISER_SORTS, {
      sortField: 'lastSeenAt',
      order: 'DESC',
      perPage: 25,
    });
    const { rows, total } = await feedAdvertiserPage(this.dataSource, page, {
      mapped: filterFlag(page.filter, 'mapped'),
      sourceId: filterId(page.filter, 'sourceId'),
      q: filterText(page.filter, 'q'),
    });
    sendRange(reply, 'feed-advertisers', page.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const advertiser = await feedAdvertiser(this.dataSource, id);
    if (!advertiser) throw new NotFoundException({ statusCode: 404, message: M.notFound });
    return advertiser;
  }

  /** Maps the advertiser to an existing store (`merchantId`). */
  @Put(':id')
  async map(@Param('id', IdPipe) id: number, @Body() body: FeedAdvertiserMappingDto) {
    await this.commands.execute(new MapFeedAdvertiser(id, body.merchantId));
    return this.one(id);
  }

  /**
   * Creates a store without an account for the advertiser and maps it: `name`, `siteUrl` and an
   * optional `logo` image (multipart, or JSON without a logo). 201 with the mapped advertiser.
   */
  @Post(':id/store')
  @ApiConsumes('multipart/form-data', 'application/json')
  async createStore(@Param('id', IdPipe) id: number, @Req() request: FastifyRequest) {
    await this.one(id);
    const { fields, images } = await readFormWithImages(request, ['logo']);
    const form = await validateForm(FeedAdvertiserStoreDto, fields);
    await this.commands.execute(
      new CreateFeedAdvertiserStore(id, {
        name: form.name,
        siteUrl: form.siteUrl,
        logo: images.logo ?? undefined,
      }),
    );
    return this.one(id);
  }
}

/** Networks' categories per source and ours they stand for (react-admin REST). */
@ApiTags('admin feeds')
@Controller('admin/feed-categories')
export class AdminFeedCategoriesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, FEED_CATEGORY_SORTS, {
      sortField: 'name',
      order: 'ASC',
      perPage: 25,
    });
    const { rows, total } = await feedCategoryPage(this.dataSource, page, {
      sourceId: filterId(page.filter, 'sourceId'),
      mapped: filterFlag(page.filter, 'mapped'),
      q: filterText(page.filter, 'q'),
    });
    sendRange(reply, 'feed-categories', page.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const category = await feedCategory(this.dataSource, id);
    if (!category) throw new NotFoundException({ statusCode: 404, message: M.categoryNotFound });
    return category;
  }

  /** Sets our category (`categoryId`, null for none). */
  @Put(':id')
  async map(@Param('id', IdPipe) id: number, @Body() body: FeedCategoryMappingDto) {
    await this.commands.execute(new MapFeedCategory(id, body.categoryId));
    return this.one(id);
  }
}
