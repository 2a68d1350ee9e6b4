import type { DataSource } from 'typeorm';
import { firstCouponOfStores } from '../coupons/queries/first-coupons.js';
import { addDemoEarning } from '../earnings/demo-earnings.js';
import { CashbackConfirmed, PurchaseRecorded } from '../earnings/events/earnings-events.js';
import { cashbackPaise } from '../earnings/money.js';
import { addDemoShopper, merchantIdsByUserNames, shopperWithEmailExists } from '../identity/demo-shoppers.js';
import { runInTransaction } from '../infrastructure/events/unit-of-work.js';
import { changePayoutState } from '../payouts/commands/payout-states.js';
import { requestPayout } from '../payouts/commands/request-payout.js';
import { backdateDemoPayout } from '../payouts/demo-payouts.js';
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
 * commands would; the payouts through the payout commands' own work, then dated back. Not in
 * production.
 */
export const demoPayoutsSeed: Seed = {
  name: 'payouts',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    return runInTransaction(dataSource, async (tx) => {
      const { manager } = tx;
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
        tx.record(
          new PurchaseRecorded(id, {
            merchantId,
            couponId,
            userId,
            purchaseAmountPaise: purchasePaise,
            cashbackPaise: cashback,
          }),
        );
        if (purchase.confirmed) {
          tx.record(new CashbackConfirmed(id, { userId, merchantId, amountPaise: cashback }));
        }
      }
      // The payouts as the shopper asked for them and the admins moved them, through the
      // commands' work (with their events), then dated as the demo's history.
      const paid = await requestPayout(tx, userId, 25_000, {
        amount: '250',
        upiId: 'priya.sharma@okhdfcbank',
      });
      await changePayoutState(tx, paid, 'processing');
      await changePayoutState(tx, paid, 'paid', { bankReference: '432918765012' });
      await backdateDemoPayout(manager, paid, { requested: 8, processing: 7, paid: 7 });
      const waiting = await requestPayout(tx, userId, 30_000, {
        amount: '300',
        accountNumber: '50100234567891',
        ifsc: 'HDFC0001234',
        accountHolderName: 'Priya Sharma',
      });
      await backdateDemoPayout(manager, waiting, { requested: 1 });
      return `a shopper with cashback and payouts (sign in as ${DEMO_SHOPPER.email} / ${DEMO_SHOPPER.password})`;
    });
  },
};
