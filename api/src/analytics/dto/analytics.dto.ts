import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, WholeNumber } from '../../infrastructure/http/field-decorators.js';
import { ANALYTICS } from '../../rules/analytics.js';

/** The period of a dashboard: the last `days` days of India, today included. */
export class AnalyticsQuery {
  @ApiPropertyOptional({
    minimum: ANALYTICS.minDays,
    maximum: ANALYTICS.maxDays,
    default: ANALYTICS.defaultDays,
  })
  @IsOptional()
  @WholeNumber(ANALYTICS.daysInvalid, ANALYTICS.daysInvalid, ANALYTICS.minDays, ANALYTICS.maxDays)
  days?: number;
}

export class MerchantAnalyticsQuery extends AnalyticsQuery {
  @ApiPropertyOptional({ description: 'One of your coupons; all of them when left out.' })
  @IsOptional()
  @WholeNumber(ANALYTICS.couponIdInvalid, ANALYTICS.couponIdInvalid, 1, 2_147_483_647)
  couponId?: number;
}
