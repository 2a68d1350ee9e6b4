import { BadRequestException, UnprocessableEntityException } from '@nestjs/common';
import { CLICK_ID } from '../rules/clicks.js';
import {
  FEED_POSTBACK,
  FEED_POSTBACK_STATUSES,
  type FeedPostbackMapping,
  type FeedPostbackStatus,
  FEED_POSTBACK_MESSAGES as P,
} from '../rules/feeds.js';
import { rupeesToPaise } from '../rules/money.js';

/** What a network's postback says of a purchase, read through its source's mapping. */
export interface NetworkPostback {
  clickId: string;
  orderId: string;
  amountPaise: number;
  commissionPaise: number | null;
  /** Null when the network sent no status (or its source maps none). */
  status: FeedPostbackStatus | null;
  /** The product category bought, when the source maps the network's field for it. */
  category: string | null;
  /** Why the network declined the purchase, when it says (the shopper reads it on the timeline). */
  reason: string | null;
}

/** Rupees with up to 2 decimals; zeros after them are allowed ("1299.5000"), as some networks pad sums. */
const RUPEES = /^(\d{1,9})(?:\.(\d{1,2})0*)?$/;

const paiseOf = (text: string): number | null => {
  const match = RUPEES.exec(text);
  return match ? rupeesToPaise(`${match[1]}.${match[2] ?? '0'}`) : null;
};

function refuse(field: string, message: string): never {
  throw new BadRequestException({ statusCode: 400, message, errors: { [field]: [message] } });
}

/**
 * One field of the postback: a text (a JSON number as it was written), trimmed; undefined when
 * absent or empty. A field given twice (`?subid=a&subid=b`) or as an object says nothing certain.
 */
function textOf(fields: Record<string, unknown>, name: string): string | undefined {
  if (!Object.hasOwn(fields, name)) return undefined;
  const value = fields[name];
  if (Array.isArray(value)) refuse(name, P.repeated(name));
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean' || typeof value === 'object' || typeof value === 'number') {
    refuse(name, P.unsupportedBody);
  }
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/**
 * Reads a network's postback (its query parameters and body fields together) through the
 * source's mapping; each refusal is a 400 naming the network's own field. Amounts are rupees, so
 * a postback naming another currency is refused (422) rather than recorded at the wrong value.
 */
export function readNetworkPostback(
  fields: Record<string, unknown>,
  { fields: names, statuses }: FeedPostbackMapping,
): NetworkPostback {
  const clickId = textOf(fields, names.clickId);
  if (clickId === undefined || !CLICK_ID.test(clickId)) refuse(names.clickId, P.clickId);
  const orderId = textOf(fields, names.orderId);
  if (orderId === undefined || orderId.length > FEED_POSTBACK.valueMax) refuse(names.orderId, P.orderId);
  const amountText = textOf(fields, names.orderAmount);
  const amountPaise = amountText === undefined ? null : paiseOf(amountText);
  if (amountPaise === null || amountPaise <= 0) refuse(names.orderAmount, P.orderAmount);
  let commissionPaise: number | null = null;
  const commissionText = names.commission === null ? undefined : textOf(fields, names.commission);
  if (commissionText !== undefined) {
    commissionPaise = paiseOf(commissionText);
    if (commissionPaise === null) refuse(names.commission!, P.commission);
  }
  let status: FeedPostbackStatus | null = null;
  const statusText = names.status === null ? undefined : textOf(fields, names.status);
  if (statusText !== undefined) {
    const word = statusText.toLowerCase();
    status =
      FEED_POSTBACK_STATUSES.find((each) => statuses[each].some((w) => w.toLowerCase() === word)) ?? null;
    if (status === null)
      refuse(names.status!, P.status(FEED_POSTBACK_STATUSES.flatMap((each) => statuses[each])));
  }
  const currency = names.currency === null ? undefined : textOf(fields, names.currency);
  if (currency !== undefined && currency.toUpperCase() !== FEED_POSTBACK.currency) {
    throw new UnprocessableEntityException({
      statusCode: 422,
      message: P.currency,
      errors: { [names.currency!]: [P.currency] },
    });
  }
  // Mappings saved before categories were read name no field for them.
  const categoryField = names.category ?? null;
  const category = categoryField === null ? undefined : textOf(fields, categoryField);
  if (category !== undefined && (category.length > FEED_POSTBACK.valueMax || /\p{Cc}/u.test(category))) {
    refuse(categoryField!, P.category);
  }
  // Mappings saved before reasons were read name no field for them either.
  const reasonField = names.reason ?? null;
  const reason = reasonField === null ? undefined : textOf(fields, reasonField);
  if (reason !== undefined && (reason.length > FEED_POSTBACK.reasonMax || /\p{Cc}/u.test(reason))) {
    refuse(reasonField!, P.reason);
  }
  return {
    clickId,
    orderId,
    amountPaise,
    commissionPaise,
    status,
    category: category ?? null,
    reason: reason ?? null,
  };
}
