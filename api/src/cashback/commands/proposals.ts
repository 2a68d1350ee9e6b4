import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { CASHBACK_MESSAGES, fromStoredRate, proposedRate, type StoredRate } from '../../rules/cashback.js';
import { CashbackProposalDecided, CashbackProposed } from '../events/cashback-events.js';
import { decideProposal, proposalById, proposalsOf, saveOpenProposal } from '../queries/proposals.js';
import { lockStoreCashback, storeCashbackStates } from '../queries/rates.js';
import { changeStoreCashback } from './store-cashback.js';

/** A store's best payout in a feed source's run: a percentage, or a flat amount in rupees. */
export interface StorePayout {
  storeId: number;
  sourceId: number;
  payout: { value: number; type: 'percent' | 'flat' };
}

const same = (a: StoredRate | null | undefined, b: StoredRate | null | undefined) =>
  !!a && !!b && a.kind === b.kind && a.value === b.value;

/**
 * Records what a feed source's payouts propose for each store: the payout times the share the
 * site passes on (`CASHBACK_SHARE_PERCENT`). Nothing is applied: an admin accepts or dismisses
 * it. A store's open proposal from the source is replaced when the payout changes; a rate the
 * store already has, or the one an admin last decided on for this source, is not proposed again.
 * The feed import calls this in a transaction of its own (`tx`); answers the proposals written.
 */
export async function proposeCashback(
  { manager, record }: Transaction,
  payouts: readonly StorePayout[],
  sharePercent: string,
): Promise<number> {
  const shareBp = Math.round(Number(sharePercent) * 100);
  let written = 0;
  for (const { storeId, sourceId, payout } of payouts) {
    const rate = proposedRate(payout, Number(sharePercent));
    if (rate === null) continue;
    if (!(await lockStoreCashback(manager, storeId))) continue;
    const { open, lastDecided } = await proposalsOf(manager, storeId, sourceId);
    const payoutStored: StoredRate = { kind: payout.type, value: Math.round(payout.value * 100) };
    if (open && same(open.rate, rate) && same(open.payout, payoutStored)) continue;
    const base = (await storeCashbackStates(manager, [storeId])).get(storeId)?.base;
    if (!open && (same(base, rate) || same(lastDecided?.rate, rate))) continue;
    const id = await saveOpenProposal(
      manager,
      { storeId, sourceId, payout: payoutStored, shareBp, rate },
      open?.id,
    );
    record(new CashbackProposed(String(id), { storeId, sourceId, rate }));
    written += 1;
  }
  return written;
}

export class DecideCashbackProposal extends Command<void> {
  constructor(
    readonly proposalId: number,
    readonly decision: 'accept' | 'dismiss',
    readonly adminId: number,
  ) {
    super();
  }
}

/**
 * An admin accepts a proposal (its rate becomes the store's base rate, through the same change as
 * an admin's, its history entry naming the proposal) or dismisses it. Either is final.
 */
@CommandHandler(DecideCashbackProposal)
export class DecideCashbackProposalHandler implements ICommandHandler<DecideCashbackProposal> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ proposalId, decision, adminId }: DecideCashbackProposal) {
    return this.unitOfWork.run(async (tx) => {
      // The store's lock first, as a feed's proposal takes them: the two never wait on each other.
      const found = await proposalById(tx.manager, proposalId);
      if (found) await lockStoreCashback(tx.manager, found.storeId);
      const proposal = found && (await proposalById(tx.manager, proposalId, { lock: true }));
      if (!proposal) {
        throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.proposalNotFound });
      }
      if (proposal.state !== 'open') {
        throw new ConflictException({
          statusCode: 409,
          message: CASHBACK_MESSAGES.proposalDecided(proposal.state),
        });
      }
      const state = decision === 'accept' ? 'accepted' : 'dismissed';
      if (decision === 'accept') {
        await changeStoreCashback(
          tx,
          proposal.storeId,
          { base: fromStoredRate(proposal.rate) },
          { origin: 'proposal', adminId, proposalId },
        );
      }
      await decideProposal(tx.manager, proposalId, state, adminId);
      tx.record(
        new CashbackProposalDecided(String(proposalId), {
          storeId: proposal.storeId,
          decision: state,
          adminId,
        }),
      );
    });
  }
}
