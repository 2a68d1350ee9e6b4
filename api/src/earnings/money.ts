import { paiseToRupees, rupeesToPaise } from '../rules/money.js';

/** "12.5" % → 1250 basis points, exactly. */
export const percentToBasisPoints = (percent: string) => rupeesToPaise(percent);
export const basisPointsToPercent = (basisPoints: number | null) =>
  basisPoints === null ? null : paiseToRupees(basisPoints);

/** Cashback in paise, rounded half up to the paisa. */
export const cashbackPaise = (amountPaise: number, rateBp: number) =>
  Math.round((amountPaise * rateBp) / 10_000);

/** Amounts from PostgreSQL `bigint` sums arrive as strings. */
export const rupees = (paise: number | string | null) => paiseToRupees(paise === null ? 0 : Number(paise));
