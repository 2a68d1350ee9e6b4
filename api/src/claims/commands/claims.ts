import {
  BadRequestException,
  ConflictException,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { storeCashbackStates } from '../../cashback/queries/rates.js';
import { clientAddressKey } from '../../clicks/client-address-key.js';
import { shopperClick } from '../../clicks/queries/clicks.js';
import {
  cancelHeldPurchase,
  creditHeldPurchase,
  recordClaimedPurchase,
} from '../../earnings/commands/purchases.js';
import { trackedClicks } from '../../earnings/queries/purchases.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { storePrivateImage } from '../../media/private-media.js';
import { CLAIM_MESSAGES, CLAIM_RULES, indiaDayStart } from '../../rules/claims.js';
import { rupeesToPaise } from '../../rules/money.js';
import { countedMessage } from '../../rules/plurals.js';
import type { FileClaimDto } from '../dto/claims.dto.js';
import { ClaimApproved, ClaimRejected, MissingCashbackClaimed } from '../events/claim-events.js';
import {
  answerClaim,
  claimById,
  claimedClicks,
  insertClaim,
  lockShopperClaims,
  openClaimCount,
  orderClaimed,
} from '../queries/claims.js';

const DAY_MS = 86_400_000;

const fieldError = (status: 400 | 409 | 422, field: string, message: string) => {
  const body = { statusCode: status, message, errors: { [field]: [message] } };
  return status === 400
    ? new BadRequestException(body)
    : status === 409
      ? new ConflictException(body)
      : new UnprocessableEntityException(body);
};

/** India's calendar day of a moment, YYYY-MM-DD. */
const indiaDay = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);

export class FileClaim extends Command<{ id: number }> {
  constructor(
    readonly userId: number,
    readonly form: FileClaimDto,
    readonly invoice: Buffer | undefined,
    /** The filing request's client address, compared (as a digest) with the click-out's. */
    readonly clientAddress: string,
  ) {
    super();
  }
}

/**
 * Files a shopper's claim for a click-out of theirs whose purchase the store never reported:
 * from a day after the click (the store's own report may still come) until the store's claim
 * window ends; one claim per click, an order id once per store, at most `CLAIM_RULES.openMax`
 * waiting at once (the shopper's filings run one at a time, so two at once cannot pass it). The
 * invoice is kept as a private image without its metadata.
 */
@CommandHandler(FileClaim)
export class FileClaimHandler implements ICommandHandler<FileClaim> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute(command: FileClaim) {
    return this.unitOfWork.run((tx) => fileClaim(tx, this.environment, command));
  }
}

/** The work of FileClaim, in the caller's transaction (the demo seed files its claims this way). */
export async function fileClaim(
  { manager, record }: Transaction,
  environment: Environment,
  { userId, form, invoice, clientAddress }: Pick<FileClaim, 'userId' | 'form' | 'invoice' | 'clientAddress'>,
): Promise<{ id: number }> {
  await lockShopperClaims(manager, userId);
  const click = await shopperClick(manager, userId, form.clickId);
  // Another shopper's click is answered as no click at all.
  if (!click) throw new NotFoundException({ statusCode: 404, message: CLAIM_MESSAGES.clickNotFound });
  const ageMs = Date.now() - new Date(click.clickedAt).getTime();
  if (ageMs < CLAIM_RULES.minAgeDays * DAY_MS) throw fieldError(422, 'clickId', CLAIM_MESSAGES.tooRecent);
  const windowDays = (await storeCashbackStates(manager, [click.merchantId])).get(
    click.merchantId,
  )!.claimWindowDays;
  if (ageMs > windowDays * DAY_MS)
    throw fieldError(422, 'clickId', countedMessage(CLAIM_MESSAGES.tooOld, windowDays));
  if ((await trackedClicks(manager, [click.id])).size > 0) {
    throw fieldError(409, 'clickId', CLAIM_MESSAGES.alreadyTracked);
  }
  if ((await claimedClicks(manager, [click.id])).size > 0) {
    throw fieldError(409, 'clickId', CLAIM_MESSAGES.alreadyClaimed);
  }
  const amountPaise = rupeesToPaise(form.amount);
  if (amountPaise <= 0) throw fieldError(400, 'amount', CLAIM_MESSAGES.amount.zero);
  const orderDay = indiaDayStart(form.orderDate);
  if (Number.isNaN(orderDay.getTime()) || indiaDay(orderDay) !== form.orderDate) {
    throw fieldError(400, 'orderDate', CLAIM_MESSAGES.orderDate.invalid);
  }
  if (form.orderDate < indiaDay(new Date(click.clickedAt))) {
    throw fieldError(400, 'orderDate', CLAIM_MESSAGES.orderDate.beforeClick);
  }
  if (form.orderDate > indiaDay(new Date()))
    throw fieldError(400, 'orderDate', CLAIM_MESSAGES.orderDate.future);
  if (await orderClaimed(manager, click.merchantId, form.orderId)) {
    throw fieldError(409, 'orderId', CLAIM_MESSAGES.orderIdTaken);
  }
  if ((await openClaimCount(manager, userId)) >= CLAIM_RULES.openMax) {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.tooManyOpen });
  }
  const invoiceId = invoice
    ? await storePrivateImage(manager, invoice, 'invoice', {
        maxBytes: CLAIM_RULES.invoiceMaxMegabytes * 1024 * 1024,
        types: ['image/jpeg', 'image/png', 'image/webp'],
        notImage: CLAIM_MESSAGES.invoiceNotImage,
        tooLarge: CLAIM_MESSAGES.invoiceTooLarge,
      })
    : null;
  const sameAddress =
    click.clientAddressKey === null
      ? null
      : click.clientAddressKey === clientAddressKey(environment.SESSION_SECRET, clientAddress);
  const inserted = await insertClaim(manager, {
    userId,
    merchantId: click.merchantId,
    couponId: click.couponId,
    clickId: click.id,
    clickedAt: click.clickedAt,
    sameAddress,
    orderId: form.orderId,
    orderDate: form.orderDate,
    amountPaise,
    invoiceId,
  });
  if ('taken' in inserted) {
    throw inserted.taken === 'click'
      ? fieldError(409, 'clickId', CLAIM_MESSAGES.alreadyClaimed)
      : fieldError(409, 'orderId', CLAIM_MESSAGES.orderIdTaken);
  }
  record(
    new MissingCashbackClaimed(String(inserted.id), {
      userId,
      merchantId: click.merchantId,
      clickId: click.id,
    }),
  );
  return inserted;
}

export class ApproveClaim extends Command<void> {
  constructor(
    readonly claimId: number,
    readonly adminId: number,
  ) {
    super();
  }
}

/**
 * Approves an item of the queue under its row's lock, so concurrent approvals make one earning:
 * a claim becomes pending cashback at the rate live at its click, through the earnings feature;
 * a held purchase is credited to its shopper. The second approval finds it answered (409).
 */
@CommandHandler(ApproveClaim)
export class ApproveClaimHandler implements ICommandHandler<ApproveClaim> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ claimId, adminId }: ApproveClaim) {
    return this.unitOfWork.run((tx) => approveClaim(tx, this.environment, claimId, adminId));
  }
}

/** The work of ApproveClaim, in the caller's transaction. */
export async function approveClaim(
  tx: Transaction,
  environment: Environment,
  claimId: number,
  adminId: number,
): Promise<void> {
  const claim = await claimById(tx.manager, claimId, { lock: true });
  if (!claim) throw new NotFoundException({ statusCode: 404, message: CLAIM_MESSAGES.notFound });
  if (claim.state !== 'open') {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.answered(claim.state) });
  }
  let earningId: number;
  if (claim.kind === 'claim') {
    const clickedAt = new Date(claim.clickedAt!);
    const orderDay = indiaDayStart(claim.orderDate);
    ({ earningId } = await recordClaimedPurchase(
      tx,
      {
        userId: claim.userId,
        merchantId: claim.merchantId,
        couponId: claim.couponId!,
        orderId: claim.orderId,
        amountPaise: Number(claim.amountPaise),
        // The order's day, but never before the click it came from.
        purchasedAt: orderDay > clickedAt ? orderDay : clickedAt,
        clickId: claim.clickId!,
        clickedAt,
      },
      environment,
    ));
  } else {
    earningId = claim.earningId!;
    await creditHeldPurchase(tx, earningId, environment);
  }
  await answerClaim(tx.manager, claimId, { state: 'approved', adminId, reason: null, earningId });
  tx.record(
    new ClaimApproved(String(claimId), { kind: claim.kind, userId: claim.userId, adminId, earningId }),
  );
}

export class RejectClaim extends Command<void> {
  constructor(
    readonly claimId: number,
    readonly adminId: number,
    readonly reason: string,
  ) {
    super();
  }
}

/** Rejects an item of the queue with the reason the shopper reads; a held purchase is cancelled. */
@CommandHandler(RejectClaim)
export class RejectClaimHandler implements ICommandHandler<RejectClaim> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ claimId, adminId, reason }: RejectClaim) {
    return this.unitOfWork.run((tx) => rejectClaim(tx, this.environment, claimId, adminId, reason));
  }
}

/** The work of RejectClaim, in the caller's transaction. */
export async function rejectClaim(
  tx: Transaction,
  environment: Environment,
  claimId: number,
  adminId: number,
  reason: string,
): Promise<void> {
  const claim = await claimById(tx.manager, claimId, { lock: true });
  if (!claim) throw new NotFoundException({ statusCode: 404, message: CLAIM_MESSAGES.notFound });
  if (claim.state !== 'open') {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.answered(claim.state) });
  }
  if (claim.kind !== 'claim') await cancelHeldPurchase(tx, claim.earningId!, environment);
  await answerClaim(tx.manager, claimId, { state: 'rejected', adminId, reason, earningId: null });
  tx.record(new ClaimRejected(String(claimId), { kind: claim.kind, userId: claim.userId, adminId }));
}
