import { BadRequestException, ConflictException, HttpException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { isUniqueViolationOf } from '../../identity/unique-violations.js';
import type { DomainEvent } from '../../infrastructure/events/domain-event.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { PAYOUT, type PayoutState } from '../../rules/payouts.js';
import { PayoutFailed, PayoutPaid, PayoutProcessingStarted } from '../events/payout-events.js';

type Transition = 'processing' | 'paid' | 'failed';

/**
 * Which state each state may become. A payout is paid only from a payment run (processing);
 * it fails before or during one. Paid and failed are final: a failed payout's amount is back in
 * the balance, and the shopper asks again.
 */
const NEXT_STATES: Record<PayoutState, readonly Transition[]> = {
  requested: ['processing', 'failed'],
  processing: ['paid', 'failed'],
  paid: [],
  failed: [],
};

interface LockedPayout {
  id: number;
  userId: number;
  amountPaise: string;
  state: PayoutState;
}

/** What a transition needs: the bank's reference to pay, the reason to fail. */
interface Facts {
  bankReference?: string;
  reason?: string;
}

const LOCK_PAYOUTS = `
  SELECT id, user_id AS "userId", amount_paise AS "amountPaise", state FROM payouts
  WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`;

const notFound = () => new NotFoundException({ statusCode: 404, message: PAYOUT.notFound });

/** The payout moves to `to`, or a 409 says why it cannot; returns the event to record. */
async function move(
  manager: EntityManager,
  payout: LockedPayout,
  to: Transition,
  facts: Facts,
): Promise<DomainEvent<object>> {
  if (!NEXT_STATES[payout.state].includes(to)) {
    throw new ConflictException({
      statusCode: 409,
      message: PAYOUT.illegalTransition(payout.state, to),
    });
  }
  const id = String(payout.id);
  const money = { userId: payout.userId, amountPaise: Number(payout.amountPaise) };
  if (to === 'processing') {
    await manager.query("UPDATE payouts SET state = 'processing', processing_at = now() WHERE id = $1", [
      payout.id,
    ]);
    return new PayoutProcessingStarted(id, money);
  }
  if (to === 'paid') {
    const bankReference = facts.bankReference!;
    const [other] = await manager.query(
      'SELECT id FROM payouts WHERE upper(bank_reference) = upper($1) AND id <> $2',
      [bankReference, payout.id],
    );
    if (other) throw duplicateReference();
    await manager.query(
      "UPDATE payouts SET state = 'paid', paid_at = now(), bank_reference = $2 WHERE id = $1",
      [payout.id, bankReference],
    );
    return new PayoutPaid(id, { ...money, bankReference });
  }
  await manager.query(
    "UPDATE payouts SET state = 'failed', failed_at = now(), failure_reason = $2 WHERE id = $1",
    [payout.id, facts.reason],
  );
  return new PayoutFailed(id, { ...money, reason: facts.reason! });
}

const duplicateReference = () =>
  new ConflictException({
    statusCode: 409,
    message: PAYOUT.bankReference.duplicate,
    errors: { bankReference: [PAYOUT.bankReference.duplicate] },
  });

/** Two payments that recorded one reference at once: the unique index refused the second. */
async function referencesOnce<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, 'payouts_bank_reference')) throw duplicateReference();
    throw error;
  }
}

/** A refusal within a run names the payout it is about: "Payout #12: …". */
function aboutPayout(error: unknown, id: number): unknown {
  if (!(error instanceof HttpException)) return error;
  const answer = error.getResponse() as { message: string; errors?: Record<string, string[]> };
  return new HttpException({ ...answer, message: PAYOUT.aboutPayout(id, answer.message) }, error.getStatus());
}

export class ChangePayoutState extends Command<void> {
  constructor(
    readonly payoutId: number,
    readonly to: Transition,
    readonly facts: Facts = {},
  ) {
    super();
  }
}

@CommandHandler(ChangePayoutState)
export class ChangePayoutStateHandler implements ICommandHandler<ChangePayoutState> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ payoutId, to, facts }: ChangePayoutState) {
    return referencesOnce(() => this.unitOfWork.run((tx) => changePayoutState(tx, payoutId, to, facts)));
  }
}

/** ChangePayoutState's work in the caller's transaction (the command's, or the demo seed's). */
export async function changePayoutState(
  { manager, record }: Transaction,
  payoutId: number,
  to: Transition,
  facts: Facts = {},
): Promise<void> {
  const [payout] = await manager.query(LOCK_PAYOUTS, [[payoutId]]);
  if (!payout) throw notFound();
  record(await move(manager, payout, to, facts));
}

export class PayPayouts extends Command<void> {
  constructor(readonly payouts: ReadonlyArray<{ id: number; bankReference: string }>) {
    super();
  }
}

/**
 * Marks a payment run's payouts paid, each with its own transfer's reference, all or none: one
 * that cannot be paid (unknown, not processing, a reference already used) leaves every other as
 * it was, and the answer names it. Rows are locked in id order, so two runs never deadlock.
 */
@CommandHandler(PayPayouts)
export class PayPayoutsHandler implements ICommandHandler<PayPayouts> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ payouts }: PayPayouts) {
    const ids = new Set(payouts.map((payout) => payout.id));
    const references = new Set(payouts.map((payout) => payout.bankReference.toUpperCase()));
    if (ids.size < payouts.length) throw bulkError(PAYOUT.bulk.repeatedId);
    if (references.size < payouts.length) throw bulkError(PAYOUT.bankReference.repeated);
    return referencesOnce(() =>
      this.unitOfWork.run(async ({ manager, record }) => {
        const locked: LockedPayout[] = await manager.query(LOCK_PAYOUTS, [[...ids]]);
        for (const { id, bankReference } of [...payouts].sort((a, b) => a.id - b.id)) {
          const payout = locked.find((row) => row.id === id);
          try {
            if (!payout) throw notFound();
            record(await move(manager, payout, 'paid', { bankReference }));
          } catch (error) {
            throw aboutPayout(error, id);
          }
        }
      }),
    );
  }
}

const bulkError = (message: string) =>
  new BadRequestException({ statusCode: 400, message, errors: { payouts: [message] } });
