import { Injectable } from '@nestjs/common';
import { CASHBACK_CHANNEL } from '../../cashback/events/cashback-events.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { ReadyAnswers } from '../../infrastructure/http/ready-answers.js';
import { ReadyReadCache } from '../../infrastructure/http/ready-read-cache.js';
import { Metrics } from '../../infrastructure/metrics/metrics.js';
import { LISTINGS_CHANNEL } from '../events/coupon-events.js';
import { CouponListings } from './listings.js';

/**
 * Ready answers of the public coupon lists (`GET /api/coupons`), by request URL: kept until the
 * lists change, the first listed coupon expires, or a minute passes (popularity moves with every
 * reveal, and lists follow within this).
 */
@Injectable()
export class ListingCache extends ReadyReadCache {
  constructor(environment: Environment, listings: CouponListings, metrics: Metrics, answers: ReadyAnswers) {
    super(environment, metrics, answers, {
      name: 'listings',
      channels: [LISTINGS_CHANNEL, CASHBACK_CHANNEL],
      routes: ['/api/coupons'],
      parameters: ['sort', 'category', 'merchant', 'q', 'page', 'perPage'],
      maxEntries: 2_000,
      maxAgeMs: 60_000,
      validUntil: () => listings.nextExpiry(),
    });
  }
}
