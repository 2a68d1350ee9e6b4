import type { DataSource } from 'typeorm';
import { approveClaim, fileClaim, rejectClaim } from '../claims/commands/claims.js';
import { backdateDemoClaim, shopperHasClaims } from '../claims/demo-claims.js';
import { addDemoClick } from '../clicks/demo-clicks.js';
import { firstCouponOfStores } from '../coupons/queries/first-coupons.js';
import { merchantIdsByUserNames, shopperIdByEmail } from '../identity/demo-shoppers.js';
import { adminIdByUserName } from '../identity/queries/profiles.js';
import { runInTransaction } from '../infrastructure/events/unit-of-work.js';
import { demoPicture } from './content.js';
import { DEMO_STORES } from './coupons.js';
import { DEMO_SHOPPER } from './payouts.js';
import type { Seed } from './seeds.js';

/** The demo shopper's claims: the click-out (days ago), the order, and how the admins answered. */
const CLAIMS = [
  {
    store: 1,
    clickedDaysAgo: 18,
    orderId: 'NYK-88213407',
    rupees: '1849',
    filedDaysAgo: 15,
    answer: { approved: true, daysAgo: 12 },
  },
  {
    store: 2,
    clickedDaysAgo: 12,
    orderId: 'CR/2026/771934',
    rupees: '3299',
    filedDaysAgo: 10,
    answer: { approved: false, daysAgo: 7, reason: 'The store reports this order as returned.' },
  },
  { store: 3, clickedDaysAgo: 4, orderId: 'OD-4471-22981', rupees: '5499.50', filedDaysAgo: 2 },
] as const;

/** India's calendar day `days` ago, YYYY-MM-DD: the order was placed the day of its click-out. */
const indiaDayAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000 + 330 * 60_000).toISOString().slice(0, 10);

/**
 * The demo shopper's missing-cashback claims, one in each state: approved (its cashback pending),
 * rejected with the reason, and one with an invoice waiting in the admins' queue. Filed and answered
 * through the claims commands' own work (with their events), then dated back. Not in production.
 */
export const demoClaimsSeed: Seed = {
  name: 'claims',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    const invoice = await demoPicture(600, 800, 'TAX INVOICE', 210);
    return runInTransaction(dataSource, async (tx) => {
      const { manager } = tx;
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:claims'))");
      const userId = await shopperIdByEmail(manager, DEMO_SHOPPER.email);
      const adminId = await adminIdByUserName(manager, environment.ADMIN_USERNAME);
      if (userId === undefined || adminId === undefined) return 'skipped: no demo shopper';
      if (await shopperHasClaims(manager, userId)) return undefined;
      const merchantIds = await merchantIdsByUserNames(
        manager,
        DEMO_STORES.map((store) => store.user),
      );
      const firstCoupons = await firstCouponOfStores(manager, merchantIds);
      for (const claim of CLAIMS) {
        const merchantId = merchantIds[claim.store];
        const couponId = merchantId === undefined ? undefined : firstCoupons.get(merchantId);
        if (merchantId === undefined || couponId === undefined) return 'skipped: no demo stores';
        const clickId = await addDemoClick(tx, {
          couponId,
          merchantId,
          userId,
          daysAgo: claim.clickedDaysAgo,
        });
        const { id } = await fileClaim(tx, environment, {
          userId,
          form: {
            clickId,
            orderId: claim.orderId,
            orderDate: indiaDayAgo(claim.clickedDaysAgo),
            amount: claim.rupees,
          },
          invoice: 'answer' in claim ? undefined : invoice,
          clientAddress: '127.0.0.1',
        });
        if ('answer' in claim) {
          if (claim.answer.approved) await approveClaim(tx, environment, id, adminId);
          else await rejectClaim(tx, environment, id, adminId, claim.answer.reason);
        }
        await backdateDemoClaim(manager, id, {
          filed: claim.filedDaysAgo,
          answered: 'answer' in claim ? claim.answer.daysAgo : undefined,
        });
      }
      return `${CLAIMS.length} missing-cashback claims of the demo shopper (approved, rejected, waiting)`;
    });
  },
};
