import { BadRequestException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NOT_SIGNED_IN } from '../../identity/sessions/access.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { rupeesToPaise } from '../../rules/money.js';
import { PAYOUT } from '../../rules/payouts.js';
import type { RequestPayoutDto } from '../dto/payouts.dto.js';
import { PayoutRequested } from '../events/payout-events.js';
import { lockedBalanceOf } from '../queries/payouts.js';

export const amountError = (message: string) =>
  new BadRequestException({ statusCode: 400, message, errors: { amount: [message] } });

export class RequestPayout extends Command<number> {
  constructor(
    readonly userId: number,
    readonly request: RequestPayoutDto,
  ) {
    super();
  }
}

/**
 * Takes the amount out of the shopper's available balance into a requested payout. The shopper's
 * row lock serialises requests of one shopper, so twenty at once can never spend more than the
 * balance: each reads what the one before it left.
 */
@CommandHandler(RequestPayout)
export class RequestPayoutHandler implements ICommandHandler<RequestPayout> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ userId, request }: RequestPayout) {
    const amountPaise = rupeesToPaise(request.amount);
    if (amountPaise <= 0) throw amountError(PAYOUT.amount.zero);
    if (amountPaise < rupeesToPaise(this.environment.PAYOUT_MIN_RUPEES)) {
      throw amountError(PAYOUT.amount.belowMinimum);
    }
    return this.unitOfWork.run((tx) => requestPayout(tx, userId, amountPaise, request));
  }
}

/**
 * RequestPayout's work in the caller's transaction (the command's, or the demo seed's), for an
 * amount the command checked against the minimum; answers the payout's id.
 */
export async function requestPayout(
  { manager, record }: Transaction,
  userId: number,
  amountPaise: number,
  request: RequestPayoutDto,
): Promise<number> {
  const method = request.upiId === undefined ? 'bank' : 'upi';
  const balance = await lockedBalanceOf(manager, userId);
  // The account was removed while its session lived on.
  if (!balance) throw new NotFoundException({ statusCode: 404, message: NOT_SIGNED_IN });
  if (amountPaise > balance.availablePaise) throw amountError(PAYOUT.amount.aboveBalance);
  const [payout] = await manager.query(
    `INSERT INTO payouts (user_id, amount_paise, method, upi_id, account_number, ifsc, account_holder_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      userId,
      amountPaise,
      method,
      method === 'upi' ? request.upiId : null,
      method === 'bank' ? request.accountNumber : null,
      method === 'bank' ? request.ifsc : null,
      request.accountHolderName || null,
    ],
  );
  record(new PayoutRequested(String(payout.id), { userId, amountPaise, method }));
  return payout.id as number;
}
