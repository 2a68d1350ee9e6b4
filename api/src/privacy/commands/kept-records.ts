import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { removeExpiredClaims } from '../../claims/queries/expired-records.js';
import { removeExpiredEarnings } from '../../earnings/queries/expired-records.js';
import { removeForgottenShopper } from '../../identity/queries/expired-accounts.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { removeExpiredPayouts } from '../../payouts/queries/expired-records.js';
import { KeptRecordsRemoved } from '../events/deletion-events.js';
import { recordDataRequest } from '../queries/data-requests.js';
import {
  erasuresPastRetention,
  lockErasurePastRetention,
  markRecordsRemoved,
} from '../queries/deletion-requests.js';

/** Erased requests read per page; each account is still removed in its own transaction. */
const PAGE = 100;

export class RemoveExpiredKeptRecords extends Command<{ accounts: number; held: number }> {
  constructor(
    /** ERASED_RECORDS_KEEP_YEARS: how long after the erasure the records stay. */
    readonly keepYears: number,
    readonly now: Date = new Date(),
  ) {
    super();
  }
}

/**
 * Removes what an erasure kept once the retention period since the erasure is over: for each such
 * account, in one transaction, its claims, payouts and earnings, then a shopper's pseudonymous
 * row, each by its owner, the counts in the data-request log. A request whose records are all gone
 * is marked and not read again. One whose row something kept for longer still needs (another
 * person's referral bonus names the shopper or their purchase) keeps what is needed, is read again
 * by later runs and finishes once that goes; a run that removes nothing records nothing.
 */
@CommandHandler(RemoveExpiredKeptRecords)
export class RemoveExpiredKeptRecordsHandler implements ICommandHandler<RemoveExpiredKeptRecords> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute({ keepYears, now }: RemoveExpiredKeptRecords) {
    const cutoff = new Date(now);
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - keepYears);
    let accounts = 0;
    let held = 0;
    let after: { erasedAt: Date; id: string } | undefined;
    for (;;) {
      const page = await erasuresPastRetention(this.dataSource.manager, cutoff, after, PAGE);
      for (const { id } of page) {
        const outcome = await this.unitOfWork.run(async ({ manager, record }) => {
          const request = await lockErasurePastRetention(manager, id);
          if (!request) return undefined;
          const { personKind: kind, personId } = request;
          const removed: Record<string, number> = {};
          if (kind === 'shopper') {
            Object.assign(removed, await removeExpiredClaims(manager, personId));
            Object.assign(removed, await removeExpiredPayouts(manager, personId));
          }
          const { held: heldEarnings, ...earnings } = await removeExpiredEarnings(manager, {
            kind,
            id: personId,
          });
          Object.assign(removed, earnings);
          // A merchant's row is its store brand, which stays (see forgetIdentity).
          let accountKept = false;
          if (kind === 'shopper') {
            const { users, kept } = await removeForgottenShopper(manager, personId);
            removed.users = users;
            accountKept = kept;
          }
          const complete = !accountKept && heldEarnings === 0;
          if (complete) await markRecordsRemoved(manager, request.id);
          const changed = Object.values(removed).some((n) => n > 0);
          if (!changed && !complete) return 'held';
          await recordDataRequest(manager, {
            kind: 'deletion',
            action: 'records_expired',
            person: { kind, id: personId },
            reference: request.id,
            actedBy: 'system',
            detail: {
              removed,
              ...(!complete && { keptForOthers: { earnings: heldEarnings, account: accountKept } }),
            },
          });
          record(new KeptRecordsRemoved(request.id, { personKind: kind, personId, complete }));
          return complete ? 'removed' : 'held';
        });
        if (outcome === 'removed') accounts += 1;
        if (outcome === 'held') held += 1;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1];
    }
    return { accounts, held };
  }
}
