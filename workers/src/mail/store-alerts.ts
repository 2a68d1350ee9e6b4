import { Injectable } from '@nestjs/common';
import { CouponApproved, type PublishedEvent } from '@offers/api/events';
import { Environment } from '@offers/api/platform';
import {
  type AlertPair,
  markAlertsMailed,
  queueStoreAlerts,
  recordOutgoingMails,
  storeAlertMailKey,
  storeAlertUnsubscribeToken,
  type WaitingAlerts,
  waitingAlerts,
} from '@offers/api/read-models';
import { LANGUAGES, type Language, localePath, marketClock, STORE_ALERTS } from '@offers/api/rules';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';
import { isQuietHour } from './quiet-hours.js';
import { renderMail } from './templates.js';

/** Pairs of follower and store a sweep reads, locks and mails at a time. */
export const STORE_ALERT_BATCH = 200;

/**
 * Mails followers the new offers of the stores they follow: at most one mail per follower and
 * store per India's day, whose idempotency key names the day, so a mail recorded twice (the same
 * event delivered again, the sweep and an event at once) is recorded once. Offers that go live
 * after the day's mail wait for the next day's, which lists them together; so do offers that go
 * live in the quiet hours (STORE_ALERT_QUIET_HOURS). Mails are sent as every other mail is.
 */
@Injectable()
export class StoreAlerts {
  constructor(private readonly environment: Environment) {}

  /** Records the alert mails due at `now` (one store's, or every store's); returns how many. */
  async mailDue(manager: EntityManager, now: Date, merchantId?: number): Promise<number> {
    const {
      day,
      parts: { hour },
    } = marketClock(now);
    if (isQuietHour(this.environment.STORE_ALERT_QUIET_HOURS, hour)) return 0;
    let mailed = 0;
    // Each batch starts after the last pair of the one before: every waiting row is read once.
    let after: AlertPair | undefined;
    do {
      const batch = await waitingAlerts(manager, day, merchantId, STORE_ALERT_BATCH, after);
      for (const alerts of batch.alerts) mailed += await this.mail(manager, alerts, day);
      after = batch.next;
    } while (after);
    return mailed;
  }

  private async mail(manager: EntityManager, alerts: WaitingAlerts, day: string): Promise<number> {
    const { PUBLIC_URL, SESSION_SECRET } = this.environment;
    const language = (LANGUAGES as readonly string[]).includes(alerts.language)
      ? (alerts.language as Language)
      : 'en';
    // Offers that ended or whose store was hidden meanwhile are dropped, not announced.
    let recorded = 1;
    if (alerts.offers.length > 0) {
      const storeUrl = `${PUBLIC_URL}${localePath(language, `/store/${alerts.slug}`)}`;
      const shown = alerts.offers.slice(0, STORE_ALERTS.maxOffersPerMail);
      const token = storeAlertUnsubscribeToken(
        SESSION_SECRET,
        alerts.userId,
        alerts.merchantId,
        alerts.email,
      );
      // The link names the mail's language, which the page it opens speaks.
      const unsubscribeUrl = `${PUBLIC_URL}/api/follows/unsubscribe?token=${encodeURIComponent(token)}&lang=${language}`;
      const parameters = {
        name: alerts.name,
        storeName: alerts.storeName,
        storeUrl,
        offers: shown.map((offer) => ({
          label: offer.title,
          url: `${storeUrl}#coupon-${offer.id}-title`,
        })),
        more: alerts.offers.length - shown.length,
        unsubscribeUrl,
      };
      recorded = await recordOutgoingMails(manager, [
        {
          idempotencyKey: storeAlertMailKey(alerts.userId, alerts.merchantId, day),
          template: 'store-alert',
          recipient: alerts.email,
          language,
          content: renderMail('store-alert', language, parameters),
          parameters,
          headers: {
            'List-Unsubscribe': `<${unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        },
      ]);
    }
    // Another sender recorded today's mail first: these alerts wait for tomorrow's.
    if (recorded === 0) return 0;
    await markAlertsMailed(manager, alerts.userId, alerts.couponIds);
    return alerts.offers.length > 0 ? 1 : 0;
  }
}

/**
 * When a store's coupon goes live, an alert for each of its followers, mailed at once unless the
 * follower had that store's mail today (or it is the quiet hours): then the sweep mails it later.
 */
@Injectable()
export class StoreAlertsConsumer implements EventConsumer {
  readonly name = 'store-alerts';
  readonly handles = [CouponApproved.type];

  constructor(private readonly alerts: StoreAlerts) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const merchantId = Number((event.payload as { merchantId: number }).merchantId);
    await queueStoreAlerts(manager, merchantId, Number(event.aggregateId));
    await this.alerts.mailDue(manager, new Date(), merchantId);
  }
}
