import { Controller, Get, NotFoundException, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isStoreCoupon } from '../coupons/queries/store-coupons.js';
import { CurrentMerchantId } from '../identity/sessions/access.js';
import { ANALYTICS } from '../rules/analytics.js';
import { AnalyticsQuery, MerchantAnalyticsQuery } from './dto/analytics.dto.js';
import { adminAnalytics, merchantAnalytics } from './queries/dashboards.js';

/** The signed-in merchant's own figures: the merchant comes from the session, never the request. */
@ApiTags('merchant')
@Controller('merchant/analytics')
export class MerchantAnalyticsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  async figures(@CurrentMerchantId() merchantId: number, @Query() query: MerchantAnalyticsQuery) {
    const couponId = query.couponId ?? null;
    // Another merchant's coupon is answered as one that does not exist.
    if (couponId !== null && !(await isStoreCoupon(this.dataSource, couponId, merchantId))) {
      throw new NotFoundException({ statusCode: 404, message: ANALYTICS.couponNotFound });
    }
    return merchantAnalytics(this.dataSource, merchantId, query.days ?? ANALYTICS.defaultDays, couponId);
  }
}

@ApiTags('admin')
@Controller('admin/analytics')
export class AdminAnalyticsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  figures(@Query() query: AnalyticsQuery) {
    return adminAnalytics(this.dataSource, query.days ?? ANALYTICS.defaultDays);
  }
}
