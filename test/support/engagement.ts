import { demoSlotsSeed } from '../../api/src/coupons/demo-slots.js';
import { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '../../api/src/identity/admin-seed.js';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { ReferralRewards } from '../../workers/src/consumers/referral-rewards.js';
import { CampaignFanOut } from '../../workers/src/mail/campaign-batches.js';
import { MailConsumer } from '../../workers/src/mail/mail-consumer.js';
import type { WorkerRole } from '../../workers/src/workers.module.js';
import { sessionFrom } from './accounts.js';
import { startApi } from './api-app.js';
import type { Marketplace } from './marketplace.js';
import { TestSmtpServer } from './smtp.js';
import { createTestEnvironment } from './test-environment.js';
import { startWorkers } from './workers-app.js';

export const ENGAGEMENT_CONSUMERS = [CouponListingProjection, MailConsumer, CampaignFanOut, ReferralRewards];

export interface EngagementMarket extends Marketplace {
  smtp: TestSmtpServer;
}

/** The marketplace with every engagement consumer and a real SMTP server of its own. */
export async function startEngagementMarket(
  name: string,
  options: { roles?: WorkerRole[]; overrides?: Record<string, string> } = {},
): Promise<EngagementMarket> {
  const smtp = new TestSmtpServer();
  await smtp.start();
  const test = await createTestEnvironment(name, {
    SMTP_URL: smtp.url,
    API_URL: 'http://api.offers.test',
    PUBLIC_URL: 'http://shop.offers.test',
    BACKOFFICE_URL: 'http://office.offers.test',
    ...options.overrides,
  });
  const api = await startApi(test.environment);
  const workers = await startWorkers(
    test.environment,
    options.roles ?? ['relay', 'events'],
    ENGAGEMENT_CONSUMERS,
  );
  await firstAdminSeed.run(api.dataSource, test.environment);
  await demoSlotsSeed.run(api.dataSource, test.environment);
  const signIn = await api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  return {
    test,
    api,
    workers,
    smtp,
    admin: sessionFrom(signIn, signIn.json().userId).bearer,
    async close() {
      await workers.close();
      await api.close();
      await smtp.stop();
      await test.cleanup();
    },
  };
}

/** A link from a mail, as a path and query on the API. */
export const apiPath = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
