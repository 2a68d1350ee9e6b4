import {
  Controller,
  Get,
  NotFoundException,
  type OnModuleInit,
  Param,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsOptional } from 'class-validator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { WholeNumber } from '../http/field-decorators.js';
import { IdPipe } from '../http/id-pipe.js';
import { Public } from '../identity/sessions/access.js';
import { SLUG_MAX_LENGTH } from '../rules/addresses.js';
import { STORE_FORM, STORE_LIST } from '../rules/storefront.js';
import { listStores } from './queries/store-list.js';
import { type ReadyPage, StorePageCache } from './queries/store-page-cache.js';

class StoreListQueryDto {
  @IsOptional()
  @WholeNumber('Page is a number from 1.', 'Page is a number from 1.', 1, 100_000)
  page = 1;

  @IsOptional()
  @WholeNumber(
    'perPage is a number.',
    `perPage is a number from 1 to ${STORE_LIST.maxPerPage}.`,
    1,
    STORE_LIST.maxPerPage,
  )
  perPage: number = STORE_LIST.defaultPerPage;
}

const PAGE_ROUTES = new Set(['/api/stores/:store', '/api/MerchantPage/GetMerchantStore/:id']);
/** A merchant id, or a store's slug (`/store/<slug>` on the public site). */
const ADDRESS = /^(?:[1-9]\d{0,8}|[a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * Public store pages, read from the `store_pages` read model, where each page is kept as the JSON
 * text it is sent as; each API process also keeps the pages it served ready in memory.
 */
@ApiTags('stores')
@Public()
@Controller()
export class PublicStoresController implements OnModuleInit {
  constructor(
    private readonly pages: StorePageCache,
    private readonly adapterHost: HttpAdapterHost,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** A page ready in memory is answered before Nest's guard and pipes run (as the coupon lists are). */
  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    server.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' || !PAGE_ROUTES.has(request.routeOptions.url ?? '')) return;
      const [id] = Object.values(request.params as Record<string, string>);
      if (!id || id.length > SLUG_MAX_LENGTH || !ADDRESS.test(id)) return;
      const ready = this.pages.peek(id);
      if (ready) return send(request, reply, ready);
    });
  }

  /** The stores A-Z, a page at a time. */
  @Get('stores')
  stores(@Query() query: StoreListQueryDto) {
    return listStores(this.dataSource, query.page, query.perPage);
  }

  /** By merchant id or by the store's slug. */
  @Get('stores/:store')
  async page(@Param('store') address: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const page =
      address.length <= SLUG_MAX_LENGTH && ADDRESS.test(address) ? await this.pages.get(address) : null;
    if (page === null) throw new NotFoundException({ statusCode: 404, message: STORE_FORM.notFound });
    return send(request, reply, page);
  }

  /** The older client's address of the same page (its `/merchantUrl/{id}` screen loads it). */
  @Get('MerchantPage/GetMerchantStore/:id')
  legacyPage(
    @Param('id', IdPipe) merchantId: number,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.page(String(merchantId), request, reply);
  }
}

/** The page's bytes, or 304 when the browser already has them; browsers check again each time. */
function send(request: FastifyRequest, reply: FastifyReply, page: ReadyPage) {
  reply.header('ETag', page.etag).header('Cache-Control', 'no-cache');
  if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(page.body);
}
