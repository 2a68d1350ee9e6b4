import { type DescribePerson, fact, isoDate, rupees, storeNames } from '../../privacy/person-data.js';

/**
 * The shopper's earnings: cashback on their purchases (store, purchase reference and amount,
 * cashback, state and its dates) and referral bonuses, with the totals per state. A referral bonus
 * names no one: whom it was for is the referred person's data.
 */
export const describeEarnings: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const rows: Array<{
    id: number;
    kind: string;
    merchantId: number | null;
    couponId: number | null;
    purchaseReference: string | null;
    purchaseType: string | null;
    purchaseAmountPaise: string | null;
    amountPaise: string;
    state: string;
    createdAt: Date;
    confirmedAt: Date | null;
    paidAt: Date | null;
    cancelledAt: Date | null;
  }> = await reader.query(
    `SELECT id, kind, merchant_id AS "merchantId", coupon_id AS "couponId",
            purchase_reference AS "purchaseReference", purchase_type AS "purchaseType",
            purchase_amount_paise AS "purchaseAmountPaise", amount_paise AS "amountPaise", state,
            created_at AS "createdAt", confirmed_at AS "confirmedAt", paid_at AS "paidAt",
            cancelled_at AS "cancelledAt"
     FROM earnings WHERE user_id = $1 ORDER BY created_at, id`,
    [person.id],
  );
  const names = await storeNames(
    reader,
    rows.flatMap((row) => (row.merchantId === null ? [] : [row.merchantId])),
  );
  const total = (state: string) =>
    rupees(rows.filter((row) => row.state === state).reduce((sum, row) => sum + Number(row.amountPaise), 0));
  return [
    {
      section: 'earnings',
      count: rows.length,
      facts: [
        fact('pending', total('pending'), 'money'),
        fact('confirmed', total('confirmed'), 'money'),
        fact('paid', total('paid'), 'money'),
        fact('cancelled', total('cancelled'), 'money'),
      ],
      sharedWith: [],
      records: rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        storeName: row.merchantId === null ? null : (names.get(row.merchantId) ?? null),
        couponId: row.couponId,
        purchaseReference: row.purchaseReference,
        purchaseType: row.purchaseType,
        purchaseAmount: rupees(row.purchaseAmountPaise),
        cashback: rupees(row.amountPaise),
        state: row.state,
        createdAt: isoDate(row.createdAt),
        confirmedAt: isoDate(row.confirmedAt),
        paidAt: isoDate(row.paidAt),
        cancelledAt: isoDate(row.cancelledAt),
      })),
    },
  ];
};
