import { BadRequestException, ConflictException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { openClaimCount } from '../../claims/queries/claims.js';
import { unsettledEarningsOfMerchant } from '../../earnings/queries/confirmed-earnings.js';
import { endAccountSessions } from '../../identity/queries/sessions.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { balanceOf, lockShopperBalance, openPayoutCount } from '../../payouts/queries/payouts.js';
import { ACCOUNT_DELETION } from '../../rules/privacy.js';
import { deletionLinkToken, isDeletionTokenShaped, tokenDigest } from '../deletion-links.js';
import {
  AccountDeletionCancelled,
  AccountDeletionConfirmed,
  AccountDeletionRequested,
} from '../events/deletion-events.js';
import { recordDataRequest } from '../queries/data-requests.js';
import {
  cancelDeletion,
  type DeletionRequestRow,
  deletionRequestByDigest,
  insertDeletionRequest,
  lapseExpiredRequest,
  openDeletionRequest,
  scheduleDeletion,
  setDeletionTokenDigests,
} from '../queries/deletion-requests.js';

export type PersonKind = 'shopper' | 'merchant';

const refuse = (message: string, field?: string) =>
  new ConflictException({ statusCode: 409, message, ...(field && { errors: { [field]: [message] } }) });

/**
 * What must be finished before the account may go, asked of each owner: a payout on its way, an
 * open claim, confirmed money not yet paid (unless given up); for a merchant, earnings on its
 * store not yet settled. Answers the confirmed money given up, in paise, when all is clear.
 */
export async function deletionBlocker(
  manager: Pick<EntityManager, 'query'>,
  kind: PersonKind,
  id: number,
  giveUpUnpaidMoney: boolean,
): Promise<{ refusal: string; field?: string } | { givesUpPaise: number }> {
  if (kind === 'merchant') {
    return (await unsettledEarningsOfMerchant(manager, id)) > 0
      ? { refusal: ACCOUNT_DELETION.refused.merchantUnpaidEarnings }
      : { givesUpPaise: 0 };
  }
  if ((await openPayoutCount(manager, id)) > 0) return { refusal: ACCOUNT_DELETION.refused.pendingPayout };
  if ((await openClaimCount(manager, id)) > 0) return { refusal: ACCOUNT_DELETION.refused.openClaim };
  const { availablePaise } = await balanceOf(manager, id);
  if (availablePaise > 0 && !giveUpUnpaidMoney)
    return { refusal: ACCOUNT_DELETION.refused.unpaidMoney, field: 'giveUpUnpaidMoney' };
  return { givesUpPaise: Math.max(0, availablePaise) };
}

export class RequestAccountDeletion extends Command<{ requestId: string }> {
  constructor(
    readonly kind: PersonKind,
    readonly personId: number,
    readonly giveUpUnpaidMoney: boolean,
  ) {
    super();
  }
}

/**
 * Records the request and has the confirmation link mailed, or refuses (409) naming what to
 * finish first. The shopper's balance lock is held, so no payout request slips in between the
 * check and the record.
 */
@CommandHandler(RequestAccountDeletion)
export class RequestAccountDeletionHandler implements ICommandHandler<RequestAccountDeletion> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ kind, personId, giveUpUnpaidMoney }: RequestAccountDeletion) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      if (kind === 'shopper') await lockShopperBalance(manager, personId);
      const open = await openDeletionRequest(manager, kind, personId, true);
      if (open?.state === 'awaiting_confirmation' && open.confirmBefore <= new Date()) {
        await lapseExpiredRequest(manager, open.id);
        await recordDataRequest(manager, {
          kind: 'deletion',
          action: 'lapsed',
          person: { kind, id: personId },
          reference: open.id,
          actedBy: 'system',
        });
        record(new AccountDeletionCancelled(open.id, { personKind: kind, personId, via: 'expired' }));
      } else if (open) {
        throw refuse(ACCOUNT_DELETION.refused.alreadyAsked);
      }
      const blocker = await deletionBlocker(manager, kind, personId, giveUpUnpaidMoney);
      if ('refusal' in blocker) throw refuse(blocker.refusal, blocker.field);
      // Stored to the millisecond, as the tokens are derived from it.
      const requestedAt = new Date(Date.now());
      const confirmBefore = new Date(
        requestedAt.getTime() + ACCOUNT_DELETION.confirmValidForHours * 3600_000,
      );
      const requestId = await insertDeletionRequest(manager, {
        personKind: kind,
        personId,
        givesUpUnpaidPaise: blocker.givesUpPaise,
        requestedAt,
        confirmBefore,
      });
      const secret = this.environment.SESSION_SECRET;
      await setDeletionTokenDigests(manager, requestId, {
        confirm: tokenDigest(deletionLinkToken(secret, 'confirm', requestId, requestedAt)),
        cancel: tokenDigest(deletionLinkToken(secret, 'cancel', requestId, requestedAt)),
      });
      await recordDataRequest(manager, {
        kind: 'deletion',
        action: 'requested',
        person: { kind, id: personId },
        reference: requestId,
        actedBy: 'person',
        detail: { givesUpUnpaidPaise: blocker.givesUpPaise },
      });
      record(
        new AccountDeletionRequested(requestId, {
          personKind: kind,
          personId,
          confirmBefore: confirmBefore.toISOString(),
        }),
      );
      return { requestId };
    });
  }
}

/** `refused`: something must be finished first (a payout, a claim, money confirmed since the request). */
export type DeletionLinkOutcome = 'confirmed' | 'cancelled' | 'invalid' | 'refused';

export class FollowDeletionLink extends Command<{ outcome: DeletionLinkOutcome; eraseAfter?: Date }> {
  constructor(
    readonly purpose: 'confirm' | 'cancel',
    readonly token: unknown,
  ) {
    super();
  }
}

const roleOf = (kind: PersonKind) => (kind === 'shopper' ? 'user' : 'merchant');

/**
 * The mailed links. Confirming schedules the erasure after the grace period and ends every
 * session of the account at once; the confirmation is checked again against what must be
 * finished first, as a payout may have been asked for since. Cancelling works while the request
 * is open. A link used, expired or unknown is `invalid` and changes nothing.
 */
@CommandHandler(FollowDeletionLink)
export class FollowDeletionLinkHandler implements ICommandHandler<FollowDeletionLink> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ purpose, token }: FollowDeletionLink) {
    if (!isDeletionTokenShaped(token)) return Promise.resolve({ outcome: 'invalid' as const });
    return this.unitOfWork.run(async ({ manager, record }) => {
      const request = await deletionRequestByDigest(manager, purpose, tokenDigest(token));
      if (!request) return { outcome: 'invalid' as const };
      const person = { kind: request.personKind, id: request.personId };
      if (purpose === 'cancel') {
        if (request.state !== 'awaiting_confirmation' && request.state !== 'scheduled')
          return { outcome: 'invalid' as const };
        await cancel(manager, record, request, 'link');
        return { outcome: 'cancelled' as const };
      }
      if (request.state !== 'awaiting_confirmation' || request.confirmBefore <= new Date())
        return { outcome: 'invalid' as const };
      if (request.personKind === 'shopper') await lockShopperBalance(manager, request.personId);
      const blocker = await deletionBlocker(
        manager,
        request.personKind,
        request.personId,
        Number(request.givesUpUnpaidPaise) > 0,
      );
      if ('refusal' in blocker) return { outcome: 'refused' as const };
      const eraseAfter = new Date(Date.now() + this.environment.ACCOUNT_DELETION_GRACE_DAYS * 86_400_000);
      await scheduleDeletion(manager, request.id, eraseAfter);
      await endAccountSessions(manager, roleOf(request.personKind), request.personId);
      await recordDataRequest(manager, {
        kind: 'deletion',
        action: 'confirmed',
        person,
        reference: request.id,
        actedBy: 'person',
        detail: { eraseAfter: eraseAfter.toISOString() },
      });
      record(
        new AccountDeletionConfirmed(request.id, {
          personKind: request.personKind,
          personId: request.personId,
          eraseAfter: eraseAfter.toISOString(),
        }),
      );
      return { outcome: 'confirmed' as const, eraseAfter };
    });
  }
}

export class CancelAccountDeletion extends Command<void> {
  constructor(
    readonly kind: PersonKind,
    readonly personId: number,
  ) {
    super();
  }
}

/** The signed-in person cancels their open request (the answer to signing in offers it). */
@CommandHandler(CancelAccountDeletion)
export class CancelAccountDeletionHandler implements ICommandHandler<CancelAccountDeletion> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ kind, personId }: CancelAccountDeletion) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const request = await openDeletionRequest(manager, kind, personId, true);
      if (!request)
        throw new BadRequestException({ statusCode: 400, message: ACCOUNT_DELETION.nothingToCancel });
      await cancel(manager, record, request, 'sign-in');
    });
  }
}

async function cancel(
  manager: EntityManager,
  record: (event: AccountDeletionCancelled) => void,
  request: DeletionRequestRow,
  via: 'sign-in' | 'link',
): Promise<void> {
  await cancelDeletion(manager, request.id);
  await recordDataRequest(manager, {
    kind: 'deletion',
    action: 'cancelled',
    person: { kind: request.personKind, id: request.personId },
    reference: request.id,
    actedBy: 'person',
    detail: { via },
  });
  record(
    new AccountDeletionCancelled(request.id, {
      personKind: request.personKind,
      personId: request.personId,
      via,
    }),
  );
}
