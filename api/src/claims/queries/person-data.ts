import { type DescribePerson, fact, isoDate, rupees, storeNames } from '../../privacy/person-data.js';

/**
 * The shopper's missing-cashback claims (and purchases held for their review): store, order, amount,
 * state, the admins' answer, and whether an invoice image is kept (the image itself is served to
 * them from their claims page; the export names it, it does not carry the bytes).
 */
export const describeClaims: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const rows: Array<{
    id: number;
    kind: string;
    state: string;
    merchantId: number;
    couponId: number | null;
    clickId: string | null;
    orderId: string;
    orderDate: string;
    amountPaise: string;
    hasInvoice: boolean;
    filedAt: Date;
    answeredAt: Date | null;
    reason: string | null;
  }> = await reader.query(
    `SELECT id, kind, state, merchant_id AS "merchantId", coupon_id AS "couponId", click_id AS "clickId",
            order_id AS "orderId", to_char(order_date, 'YYYY-MM-DD') AS "orderDate",
            amount_paise AS "amountPaise", invoice_id IS NOT NULL AS "hasInvoice", filed_at AS "filedAt",
            answered_at AS "answeredAt", reason
     FROM missing_cashback_claims WHERE user_id = $1 ORDER BY filed_at, id`,
    [person.id],
  );
  const names = await storeNames(
    reader,
    rows.map((row) => row.merchantId),
  );
  const inState = (state: string) => rows.filter((row) => row.state === state).length;
  return [
    {
      section: 'claims',
      count: rows.length,
      facts: [
        fact('open', inState('open'), 'number'),
        fact('approved', inState('approved'), 'number'),
        fact('rejected', inState('rejected'), 'number'),
      ],
      sharedWith: [],
      records: rows.map(({ merchantId, amountPaise, filedAt, answeredAt, ...row }) => ({
        ...row,
        storeName: names.get(merchantId) ?? null,
        amount: rupees(amountPaise),
        filedAt: isoDate(filedAt),
        answeredAt: isoDate(answeredAt),
      })),
    },
  ];
};
