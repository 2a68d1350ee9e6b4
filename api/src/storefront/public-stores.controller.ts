import { Controller, Get, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsOptional } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { Public } from '../identity/sessions/access.js';
import { Environment } from '../infrastructure/config/environment.js';
import { WholeNumber } from '../infrastructure/http/field-decorators.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import type { ReadyAnswer } from '../infrastructure/http/ready-answers.js';
import { STORE_FORM, STORE_LIST } from '../rules/storefront.js';
import { listStores } from './queries/store-list.js';
import { isStoreAddress, StorePageCache } from './queries/store-page-cache.js';

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

/**
 * Public store pages, read from the `store_pages` read model, where each page is kept as the JSON
 * text it is sent as; each API process also keeps the pages it served ready in memory.
 */
@ApiTags('stores')
@Public()
@Controller()
export class PublicStoresController {
  constructor(
    private readonly pages: StorePageCache,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  /** The stores A-Z, a page at a time. */
  @Get('stores')
  stores(@Query() query: StoreListQueryDto) {
    return listStores(this.dataSource, query.page, query.perPage, this.environment);
  }

  /** By merchant id or by the store's slug. */
  @Get('stores/:store')
  async page(@Param('store') address: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const page = isStoreAddress(address) ? await this.pages.get(address) : null;
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

/** The page's bytes; its entity tag, a 304 and how it may be kept are added as for every public read. */
function send(_request: FastifyRequest, reply: FastifyReply, page: ReadyAnswer) {
  return reply.type('application/json; charset=utf-8').send(page.body);
}
