import type { DataSource } from 'typeorm';
import { firstCouponOfStores } from '../coupons/queries/first-coupons.js';
import { addDemoEarning } from '../earnings/demo-earnings.js';
import { CashbackConfirmed, PurchaseRecorded } from '../earnings/events/earnings-events.js';
import { cashbackPaise } from '../earnings/money.js';
import { addDemoShopper, merchantIdsByUserNames, shopperWithEmailExists } from '../identity/demo-shoppers.js';
import type { DomainEvent } from '../infrastructure/events/domain-event.js';
import { appendToOutbox } from '../infrastructure/events/unit-of-work.js';
import { PayoutPaid, PayoutProcessingStarted, PayoutRequested } from '../payouts/events/payout-events.js';
import { DEMO_STORES } from './coupons.js';
import type { Seed } from './seeds.js';

/** The demo shopper's sign-in; shown by `npm start` only in development. */
export const DEMO_SHOPPER = {
  userName: 'Priya Sharma',
  email: 'demo-shopper@offers.localhost',
  mobileNumber: '9123405678',
  password: 'Shop@2026',
} as const;

/** Purchases at the demo stores (by index), in rupees, and whether the store confirmed them yet. */
const PURCHASES = [
  { store: 0, rupees: 2_499, confirmed: true, daysAgo: 41 },
  { store: 1, rupees: 8_999, confirmed: true, daysAgo: 33 },
  { store: 2, rupees: 3_450, confirmed: true, daysAgo: 20 },
  { store: 3, rupees: 12_999, confirmed: true, daysAgo: 9 },
  { store: 0, rupees: 1_299.5, confirmed: false, daysAgo: 2 },
];

const DEFAULT_RATE_BP = 500;

/**
 * A shopper with cashback from five purchases at the demo stores (four confirmed, ₹1,397.35 in
 * all), a payout paid to a UPI ID and one to a bank account waiting in the admins' queue, so the
 * shopper's earnings page and the payout queue show something. Written with their events, as the
 * commands would. Not in production.
 */
export const demoPayoutsSeed: Seed = {
  name: 'payouts',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    return dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:payouts'))");
      if (await shopperWithEmailExists(manager, DEMO_SHOPPER.email)) return undefined;
      // The demo stores that have a coupon, in the order of their ids.
      const merchantIds = await merchantIdsByUserNames(
        manager,
        DEMO_STORES.map((store) => store.user),
      );
      const firstCoupons = await firstCouponOfStores(manager, merchantIds);
      const stores = merchantIds.flatMap((merchantId) => {
        const couponId = firstCoupons.get(merchantId);
        return couponId === undefined ? [] : [{ merchantId, couponId }];
      });
      if (stores.length < 4) return 'skipped: no demo stores';
      const userId = await addDemoShopper(manager, {
        ...DEMO_SHOPPER,
        address: '14 Residency Road, Bengaluru 560025',
      });
      const events: DomainEvent<object>[] = [];
      for (const [index, purchase] of PURCHASES.entries()) {
        const { merchantId, couponId } = stores[purchase.store]!;
        const purchasePaise = Math.round(purchase.rupees * 100);
        const cashback = cashbackPaise(purchasePaise, DEFAULT_RATE_BP);
        const id = String(
          await addDemoEarning(manager, {
            userId,
            merchantId,
            couponId,
            purchaseReference: `DEMO-ORD-${1001 + index}`,
            purchasePaise,
            rateBp: DEFAULT_RATE_BP,
            cashbackPaise: cashback,
            confirmed: purchase.confirmed,
            daysAgo: purchase.daysAgo,
          }),
        );
        events.push(
          new PurchaseRecorded(id, {
            merchantId,
            couponId,
            userId,
            purchaseAmountPaise: purchasePaise,
            cashbackPaise: cashback,
          }),
        );
        if (purchase.confirmed) {
          events.push(new CashbackConfirmed(id, { userId, merchantId, amountPaise: cashback }));
        }
      }
      const [paid] = await manager.query(
        `INSERT INTO payouts (user_id, amount_paise, method, upi_id, state, bank_reference, requested_at,
                              processing_at, paid_at)
         VALUES ($1, 25000, 'upi', 'priya.sharma@okhdfcbank', 'paid', '432918765012', now() - interval '8 days',
                 now() - interval '7 days', now() - interval '7 days')
         RETURNING id`,
        [userId],
      );
      const [waiting] = await manager.query(
        `INSERT INTO payouts (user_id, amount_paise, method, account_number, ifsc, account_holder_name, requested_at)
         VALUES ($1, 30000, 'bank', '50100234567891', 'HDFC0001234', 'Priya Sharma', now() - interval '1 day')
         RETURNING id`,
        [userId],
      );
      const paidFacts = { userId, amountPaise: 25_000 };
      events.push(
        new PayoutRequested(String(paid.id), { ...paidFacts, method: 'upi' }),
        new PayoutProcessingStarted(String(paid.id), paidFacts),
        new PayoutPaid(String(paid.id), { ...paidFacts, bankReference: '432918765012' }),
        new PayoutRequested(String(waiting.id), { userId, amountPaise: 30_000, method: 'bank' }),
      );
      await appendToOutbox(manager, events);
      return `a shopper with cashback and payouts (sign in as ${DEMO_SHOPPER.email} / ${DEMO_SHOPPER.password})`;
    });
  },
};
