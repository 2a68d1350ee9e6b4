import { Injectable } from '@nestjs/common';
import { CASHBACK_CHANNEL } from '../../cashback/events/cashback-events.js';
import { LISTINGS_CHANNEL } from '../../coupons/events/coupon-events.js';
import { CouponListings } from '../../coupons/queries/listings.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { ReadyAnswers } from '../../infrastructure/http/ready-answers.js';
import { ReadyReadCache } from '../../infrastructure/http/ready-read-cache.js';
import { Metrics } from '../../infrastructure/metrics/metrics.js';
import { HOME_CONTENT_CHANNEL } from '../events/content-events.js';

/**
 * Ready answers of the home page's reads, by request URL: kept until the home content or the
 * coupon lists change (the home page shows top coupons), the first listed coupon expires, or a
 * minute passes.
 */
@Injectable()
export class HomeContentCache extends ReadyReadCache {
  constructor(environment: Environment, listings: CouponListings, metrics: Metrics, answers: ReadyAnswers) {
    super(environment, metrics, answers, {
      name: 'home',
      channels: [HOME_CONTENT_CHANNEL, LISTINGS_CHANNEL, CASHBACK_CHANNEL],
      routes: ['/api/home', '/api/heroes', '/api/banners', '/api/flash-text'],
      parameters: ['position', 'postion'],
      maxEntries: 200,
      maxAgeMs: 60_000,
      validUntil: () => listings.nextExpiry(),
    });
  }
}
