import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNotEmpty } from 'class-validator';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { StoreClaimDto } from '../feeds/dto/feed-advertiser.dto.js';
import { ClaimStore } from '../identity/commands/claim-store.js';
import { Flag } from '../infrastructure/http/field-decorators.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import {
  badFilter,
  listAnswer,
  parseListRequest,
  reactAdminList,
} from '../infrastructure/http/react-admin.js';
import { STORE_VISIBILITY } from '../rules/storefront.js';
import { SetStoreVisibility } from './commands/store-visibility.js';
import { ADMIN_STORE_SORTS, adminStorePage } from './queries/store-list.js';

export class StoreVisibilityDto {
  @IsNotEmpty({ message: STORE_VISIBILITY.hidden })
  @Flag(STORE_VISIBILITY.hidden)
  hidden: boolean;
}

/**
 * Every store for admins (react-admin list, to choose one), and hiding a merchant's store page and
 * coupons from the public site, or showing them again.
 */
@ApiTags('admin')
@Controller('admin/stores')
export class AdminStoresController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('stores', ADMIN_STORE_SORTS, 'name', 'ASC');
    return listAnswer(query, reply, list, (page) => {
      const { q, withoutAccount, id } = page.filter;
      if (q !== undefined && (typeof q !== 'string' || q.length > 100)) badFilter('q');
      if (
        withoutAccount !== undefined &&
        !['true', 'false', true, false].includes(withoutAccount as string)
      ) {
        badFilter('withoutAccount');
      }
      const ids = id === undefined ? undefined : [id].flat().map(Number);
      if (ids && !ids.every((each) => Number.isInteger(each) && each > 0 && each <= 2_147_483_647))
        badFilter('id');
      return adminStorePage(this.dataSource, page, {
        q: q as string | undefined,
        withoutAccount: withoutAccount === undefined ? undefined : String(withoutAccount) === 'true',
        ids,
      });
    });
  }

  @Put(':merchantId')
  setVisibility(@Param('merchantId', IdPipe) merchantId: number, @Body() body: StoreVisibilityDto) {
    return this.commands.execute(new SetStoreVisibility(merchantId, body.hidden));
  }

  /**
   * A registered merchant (`merchantId`, with no coupon or store of its own) takes over a store
   * without an account; it signs in again and is that store. Answers the store as listed.
   */
  @Post(':storeId/claim')
  @HttpCode(200)
  async claim(@Param('storeId', IdPipe) storeId: number, @Body() body: StoreClaimDto) {
    await this.commands.execute(new ClaimStore(storeId, body.merchantId));
    const page = parseListRequest({}, ADMIN_STORE_SORTS, { sortField: 'id', order: 'ASC', perPage: 1 });
    return (await adminStorePage(this.dataSource, page, { ids: [storeId] })).rows[0];
  }
}
