import { Body, Controller, Get, NotFoundException, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { validateForm } from '../infrastructure/http/forms.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import {
  filterFlag,
  filterId,
  filterText,
  listAnswer,
  reactAdminList,
} from '../infrastructure/http/react-admin.js';
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

/** Networks' advertiser names, ids and category names are kept to 200 characters: a search may give a whole one. */
const NAME_SEARCH = { maxLength: 200 };

const FEED_ADVERTISER_LIST = reactAdminList('feed-advertisers', FEED_ADVERTISER_SORTS, 'lastSeenAt', 'DESC');

const FEED_CATEGORY_LIST = reactAdminList('feed-categories', FEED_CATEGORY_SORTS, 'name', 'ASC');

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
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listAnswer(query, reply, FEED_ADVERTISER_LIST, (page) =>
      feedAdvertiserPage(this.dataSource, page, {
        mapped: filterFlag(page.filter, 'mapped'),
        sourceId: filterId(page.filter, 'sourceId'),
        q: filterText(page.filter, 'q', NAME_SEARCH),
      }),
    );
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
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return listAnswer(query, reply, FEED_CATEGORY_LIST, (page) =>
      feedCategoryPage(this.dataSource, page, {
        sourceId: filterId(page.filter, 'sourceId'),
        mapped: filterFlag(page.filter, 'mapped'),
        q: filterText(page.filter, 'q', NAME_SEARCH),
      }),
    );
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
