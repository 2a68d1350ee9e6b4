import { Injectable } from '@nestjs/common';
import { CASHBACK_CHANNEL } from '../../cashback/events/cashback-events.js';
import { LISTINGS_CHANNEL } from '../../coupons/events/coupon-events.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { ReadyAnswers } from '../../infrastructure/http/ready-answers.js';
import { ReadyReadCache } from '../../infrastructure/http/ready-read-cache.js';
import { Metrics } from '../../infrastructure/metrics/metrics.js';
import { STORE_PAGES_CHANNEL } from '../../storefront/events/storefront-events.js';

/**
 * Ready answers of the search box's suggestions, by request URL: what shoppers type repeats (the
 * same first letters, the same popular stores), so most keystrokes find their answer kept. Kept
 * until the lists or the store pages change, or a minute passes (categories change rarely and
 * follow within it).
 */
@Injectable()
export class SuggestionCache extends ReadyReadCache {
  constructor(environment: Environment, metrics: Metrics, answers: ReadyAnswers) {
    super(environment, metrics, answers, {
      name: 'suggestions',
      channels: [LISTINGS_CHANNEL, STORE_PAGES_CHANNEL, CASHBACK_CHANNEL],
      routes: ['/api/search/suggest'],
      parameters: ['q'],
      maxEntries: 5_000,
      maxAgeMs: 60_000,
    });
  }
}
