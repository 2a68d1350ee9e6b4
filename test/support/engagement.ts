import { CouponListingProjection } from '@offers/workers/consumers';
import {
  CampaignFanOut,
  EarningUpdatesConsumer,
  MailConsumer,
  StoreAlertsConsumer,
} from '@offers/workers/mail';
import type { WorkerRole } from '@offers/workers/module';
import { type Marketplace, startMarketplace } from './marketplace.js';
import { TestSmtpServer } from './smtp.js';

export const ENGAGEMENT_CONSUMERS = [
  CouponListingProjection,
  MailConsumer,
  CampaignFanOut,
  StoreAlertsConsumer,
  EarningUpdatesConsumer,
];

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
  const market = await startMarketplace(name, {
    consumers: ENGAGEMENT_CONSUMERS,
    roles: options.roles,
    settings: {
      SMTP_URL: smtp.url,
      API_URL: 'http://api.offers.test',
      PUBLIC_URL: 'http://shop.offers.test',
      BACKOFFICE_URL: 'http://office.offers.test',
      ...options.overrides,
    },
  });
  return {
    ...market,
    smtp,
    async close() {
      await market.close();
      await smtp.stop();
    },
  };
}

/** A link from a mail, as a path and query on the API. */
export const apiPath = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
