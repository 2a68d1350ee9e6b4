import { Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { endCouponsOfMerchant } from '../../coupons/commands/feed-changes.js';
import { accountContact } from '../../identity/queries/profiles.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { QueueRegistry } from '../../infrastructure/jobs/queue-registry.js';
import { QueueName } from '../../infrastructure/jobs/queues.js';
import { deleteReleasedObjects } from '../../media/pending-objects.js';
import { lockShopperBalance } from '../../payouts/queries/payouts.js';
import { AccountErased } from '../events/deletion-events.js';
import { PERSON_FORGETTERS } from '../forgetters.js';
import type { PersonToForget } from '../person.js';
import { recordDataRequest } from '../queries/data-requests.js';
import { markErased, nextDueDeletion } from '../queries/deletion-requests.js';
import { deletionBlocker } from './deletion.js';

/** Job states whose jobs are done with: their data is kept only for a while, for deduplication. */
const FINISHED_JOB_STATES = ['completed', 'failed'] as const;
const JOBS_PER_PAGE = 500;

/** One request's turn: put off (something must finish first), or erased with the values to clear from Redis. */
type ErasureStep = { postponed: string; erased: undefined } | { postponed: undefined; erased: string[] };

export class EraseDueAccounts extends Command<{ erased: number; postponed: number }> {
  constructor(readonly now: Date = new Date()) {
    super();
  }
}

/**
 * Erases the accounts whose grace period is over: for each, in one transaction, every owner of
 * personal data forgets the person (PERSON_FORGETTERS), a merchant's live and pending coupons end,
 * the request is marked erased and the per-table counts go into the data-request log. A run that
 * dies mid-way rolls its transaction back and leaves the request scheduled for the next run; a
 * request already erased is no longer due, so running again changes nothing. A request whose
 * person has since started something that must finish first (a payout, a claim) waits for a later
 * run. Afterwards the finished jobs in Redis whose data names the person go too.
 */
@CommandHandler(EraseDueAccounts)
export class EraseDueAccountsHandler implements ICommandHandler<EraseDueAccounts> {
  private readonly logger = new Logger('Erasure');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly queues: QueueRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute({ now }: EraseDueAccounts) {
    let erased = 0;
    const postponed = new Set<string>();
    for (;;) {
      const outcome = await this.unitOfWork.run(async (tx): Promise<ErasureStep | undefined> => {
        const { manager, record } = tx;
        const request = await nextDueDeletion(manager, now, [...postponed]);
        if (!request) return undefined;
        const { personKind: kind, personId: id } = request;
        if (kind === 'shopper') await lockShopperBalance(manager, id);
        // A payout or claim started in the grace period puts the erasure off until it is done.
        // Money confirmed meanwhile does not: the person confirmed the deletion, and a job cannot
        // ask them; what it comes to is logged with the erasure, as the amount given up.
        const blocker = await deletionBlocker(manager, kind, id, true);
        if ('refusal' in blocker) return { postponed: request.id, erased: undefined };
        const contact = await accountContact(manager, kind, id);
        const removed: Record<string, number> = {};
        const anonymised: Record<string, number> = {};
        if (contact) {
          const person: PersonToForget = {
            kind,
            id,
            email: contact.email,
            mobile: contact.mobile,
            pseudonym: `forgotten-${request.id}`,
          };
          for (const { forget } of PERSON_FORGETTERS) {
            const counts = await forget(manager, person);
            for (const [table, n] of Object.entries(counts.removed))
              removed[table] = (removed[table] ?? 0) + n;
            for (const [table, n] of Object.entries(counts.anonymised))
              anonymised[table] = (anonymised[table] ?? 0) + n;
          }
        }
        const couponsEnded = kind === 'merchant' ? (await endCouponsOfMerchant(tx, id)).length : 0;
        await markErased(manager, request.id);
        await recordDataRequest(manager, {
          kind: 'deletion',
          action: 'erased',
          person: { kind, id },
          reference: request.id,
          actedBy: 'system',
          detail: {
            removed,
            anonymised,
            givesUpUnpaidPaise: blocker.givesUpPaise,
            ...(kind === 'merchant' && { couponsEnded }),
          },
        });
        record(new AccountErased(request.id, { personKind: kind, personId: id }));
        return {
          postponed: undefined,
          erased: [contact?.email, contact?.mobile].filter((value): value is string => !!value),
        };
      });
      if (!outcome) break;
      if (outcome.postponed !== undefined) {
        postponed.add(outcome.postponed);
        continue;
      }
      erased += 1;
      await this.deleteForgottenObjects();
      await this.forgetFinishedJobs(outcome.erased);
    }
    if (postponed.size > 0)
      this.logger.warn(`${postponed.size} erasures wait for a payout or claim to finish`);
    return { erased, postponed: postponed.size };
  }

  /**
   * The person's images in the bucket, released in the committed transaction, go now. The bucket
   * being away is no reason to undo the erasure: the workers' media sweep deletes them later.
   */
  private async deleteForgottenObjects(): Promise<void> {
    try {
      await deleteReleasedObjects(this.dataSource);
    } catch (error) {
      this.logger.warn(`Could not delete forgotten images yet: ${(error as Error).message}`);
    }
  }

  /**
   * Finished jobs are kept a while (for deduplication, and failed ones for inspection), holding
   * their data: those naming the person go. Jobs still to run are left, since their work is the
   * product's and reads the forgotten rows. Redis being away is no reason to undo the erasure:
   * the jobs expire by themselves (a day for completed ones).
   */
  private async forgetFinishedJobs(values: string[]): Promise<void> {
    const needles = values.map((value) => value.toLowerCase());
    if (needles.length === 0) return;
    try {
      for (const name of Object.values(QueueName)) await forgetJobsNaming(this.queues.get(name), needles);
    } catch (error) {
      this.logger.warn(`Could not clear finished jobs: ${(error as Error).message}`);
    }
  }
}

async function forgetJobsNaming(queue: Queue, needles: string[]): Promise<void> {
  for (let start = 0; ; start += JOBS_PER_PAGE) {
    const jobs = await queue.getJobs([...FINISHED_JOB_STATES], start, start + JOBS_PER_PAGE - 1, true);
    if (jobs.length === 0) return;
    let removed = 0;
    for (const job of jobs) {
      if (!job?.id) continue;
      const held = JSON.stringify([
        job.data,
        job.returnvalue,
        job.failedReason,
        job.stacktrace,
      ]).toLowerCase();
      if (needles.some((needle) => held.includes(needle))) {
        await job.remove();
        removed += 1;
      }
    }
    // Removed jobs leave the lists: the next page starts that many earlier.
    start -= removed;
  }
}
