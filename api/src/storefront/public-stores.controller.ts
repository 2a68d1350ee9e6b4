import { Controller, Get, Header, NotFoundException, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { IdPipe } from '../http/id-pipe.js';
import { Public } from '../identity/sessions/access.js';
import { STORE_FORM } from '../rules/storefront.js';

/**
 * Public store pages, read from the `store_pages` read model: each page is stored as the JSON text
 * it is sent as, so a request costs one primary-key read and no serialisation.
 */
@ApiTags('stores')
@Public()
@Controller()
export class PublicStoresController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('stores/:merchantId')
  @Header('Content-Type', 'application/json; charset=utf-8')
  async page(@Param('merchantId', IdPipe) merchantId: number): Promise<string> {
    const [page] = await this.dataSource.query(
      'SELECT document::text AS body FROM store_pages WHERE merchant_id = $1',
      [merchantId],
    );
    if (!page) throw new NotFoundException({ statusCode: 404, message: STORE_FORM.notFound });
    return page.body;
  }

  /** The older client's address of the same page (`/merchantUrl/{id}` loads it). */
  @Get('MerchantPage/GetMerchantStore/:id')
  @Header('Content-Type', 'application/json; charset=utf-8')
  legacyPage(@Param('id', IdPipe) merchantId: number): Promise<string> {
    return this.page(merchantId);
  }
}
