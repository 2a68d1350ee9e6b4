import { Injectable } from '@nestjs/common';
import { CashbackConfirmed, type PublishedEvent, PurchaseRecorded } from '@offers/api/events';
import { Environment } from '@offers/api/platform';
import {
  earningUpdatesMailKey,
  markNoticesMailed,
  type NoticeStep,
  noteEarningStep,
  recordOutgoingMails,
  storeCashback,
  type WaitingNotice,
  type WaitingNotices,
  waitingNotices,
} from '@offers/api/read-models';
import { LANGUAGES, type Language, localePath, marketClock } from '@offers/api/rules';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';
import { earningsUrl } from './mail-consumer.js';
import { isQuietHour } from './quiet-hours.js';
import { type EarningUpdate, renderMail } from './templates.js';

/** Shoppers mailed per statement by a sweep. */
const SWEEP_BATCH = 200;

const DAY_MS = 86_400_000;

/** What each notice says, as the earning is now: a cancelled purchase's news is dropped. */
const STILL_TRUE: Record<NoticeStep, readonly string[]> = {
  tracked: ['pending', 'confirmed', 'paid'],
  confirmed: ['confirmed', 'paid'],
};

/**
 * Mails shoppers what happened to their cashback: purchases tracked and cashback confirmed, at
 * most one mail a day per shopper (its idempotency key names India's day), listing everything
 * noted since the last one. A notice waits EARNING_MAIL_WAIT_MINUTES, so steps close together
 * share a mail; what is noted after the day's mail waits for the next day's. Notices and the
 * mail's row are PostgreSQL's, written in one transaction, so a workers process that stops at any
 * moment loses nothing and a sweep run again records nothing twice; the mail is sent as every
 * other mail is.
 */
@Injectable()
export class EarningUpdates {
  constructor(private readonly environment: Environment) {}

  /** Records the digests due at `now`; returns how many. */
  async mailDue(manager: EntityManager, now: Date): Promise<number> {
    const {
      day,
      parts: { hour },
    } = marketClock(now);
    if (isQuietHour(this.environment.STORE_ALERT_QUIET_HOURS, hour)) return 0;
    let mailed = 0;
    for (;;) {
      const batch = await waitingNotices(manager, day, now, SWEEP_BATCH);
      for (const shopper of batch) mailed += await this.mail(manager, shopper, day);
      if (batch.length < SWEEP_BATCH) return mailed;
    }
  }

  private async mail(manager: EntityManager, shopper: WaitingNotices, day: string): Promise<number> {
    const { PUBLIC_URL } = this.environment;
    const language = (LANGUAGES as readonly string[]).includes(shopper.language)
      ? (shopper.language as Language)
      : 'en';
    const told = shopper.notices.filter(
      (notice) =>
        STILL_TRUE[notice.step].includes(notice.state) &&
        // A purchase tracked and confirmed since the last mail is news once: it is confirmed.
        !(
          notice.step === 'tracked' &&
          shopper.notices.some((other) => other.earningId === notice.earningId && other.step === 'confirmed')
        ),
    );
    let recorded = 1;
    if (told.length > 0) {
      const updates = await this.updates(manager, told, language);
      const parameters = { name: shopper.name, updates, earningsUrl: earningsUrl(PUBLIC_URL, language) };
      recorded = await recordOutgoingMails(manager, [
        {
          idempotencyKey: earningUpdatesMailKey(shopper.userId, day),
          template: 'earning-updates',
          recipient: shopper.email,
          language,
          content: renderMail('earning-updates', language, parameters),
          parameters,
        },
      ]);
    }
    // Another sweep recorded today's mail first: these notices wait for tomorrow's.
    if (recorded === 0) return 0;
    await markNoticesMailed(manager, shopper.userId, shopper.notices);
    return told.length > 0 ? 1 : 0;
  }

  /** The lines of the mail; a tracked purchase's with the date its store is expected to confirm it by. */
  private async updates(
    manager: EntityManager,
    notices: WaitingNotice[],
    language: Language,
  ): Promise<EarningUpdate[]> {
    const stores = await storeCashback(
      manager,
      [...new Set(notices.map((notice) => notice.storeId))],
      this.environment,
    );
    return notices.map((notice) => {
      const confirmDays = stores.get(notice.storeId)?.confirmDays;
      return {
        step: notice.step,
        storeName: notice.storeName,
        purchasePaise: Number(notice.purchaseAmountPaise),
        cashbackPaise: Number(notice.amountPaise),
        expectedBy:
          notice.step === 'tracked' && confirmDays !== undefined
            ? new Date(new Date(notice.trackedAt).getTime() + confirmDays * DAY_MS).toISOString()
            : null,
        url: `${this.environment.PUBLIC_URL}${localePath(language, `/account/earnings/${notice.earningId}`)}`,
      };
    });
  }
}

/**
 * Notes each purchase tracked and each cashback confirmed for its shopper's next digest, due
 * EARNING_MAIL_WAIT_MINUTES after it happened; the scheduled sweep mails it.
 */
@Injectable()
export class EarningUpdatesConsumer implements EventConsumer {
  readonly name = 'earning-updates';
  readonly handles = [PurchaseRecorded.type, CashbackConfirmed.type];

  constructor(private readonly environment: Environment) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const step: NoticeStep = event.type === PurchaseRecorded.type ? 'tracked' : 'confirmed';
    const dueAt = new Date(
      new Date(event.occurredAt).getTime() + this.environment.EARNING_MAIL_WAIT_MINUTES * 60_000,
    );
    await noteEarningStep(manager, Number(event.aggregateId), step, dueAt);
  }
}
