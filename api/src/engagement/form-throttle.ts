import { Injectable } from '@nestjs/common';
import { RateLimits } from '../infrastructure/http/rate-limits.js';

/**
 * Counts accepted public forms (newsletter, contact) per client address; past the quota of the
 * window (FORM_LIMITS) the address gets 429 with Retry-After until the window ends. Counted by the
 * shared rate limits, in Redis, so every API process agrees.
 */
@Injectable()
export class FormThrottle {
  constructor(private readonly limits: RateLimits) {}

  count(form: 'newsletter' | 'contact', address: string): Promise<void> {
    return this.limits.consume(form, address);
  }
}
