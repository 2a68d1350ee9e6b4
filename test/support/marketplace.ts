import type { Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { demoSlotsSeed } from '@offers/api/demo/slots';
import { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '@offers/api/identity/admin-seed';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { HomeContentProjection } from '../../workers/src/consumers/home-content.projection.js';
import { StorePageProjection } from '../../workers/src/consumers/store-page.projection.js';
import type { EventConsumer } from '../../workers/src/events/event-consumer.js';
import type { WorkerRole } from '../../workers/src/workers.module.js';
import { BEARER_SIGN_IN, registerAndSignInMerchant, type Session, sessionFrom } from './accounts.js';
import { type ApiApp, startApi } from './api-app.js';
import { couponForm } from './coupons.js';
import { createTestEnvironment, eventually, type TestEnvironment } from './test-environment.js';
import { startWorkers, type WorkersApp } from './workers-app.js';

/** The API and the workers (relay, consumers) on one fresh database, with an admin and the demo slots. */
export interface Marketplace {
  test: TestEnvironment;
  api: ApiApp;
  workers: WorkersApp;
  admin: Record<string, string>;
  close(): Promise<void>;
}

export interface MarketplaceOptions {
  /** The event consumers the workers run; the read models of the public site by default. */
  consumers?: Type<EventConsumer>[];
  /** Settings that differ from the test defaults. */
  settings?: Record<string, string>;
  /** What the workers process runs; relay and events by default. */
  roles?: WorkerRole[];
  /** Providers of the workers replaced by the test's. */
  overrides?: Array<{ provide: unknown; useValue: unknown }>;
}

export async function startMarketplace(name: string, options: MarketplaceOptions = {}): Promise<Marketplace> {
  const test = await createTestEnvironment(name, options.settings);
  const api = await startApi(test.environment);
  const workers = await startWorkers(
    test.environment,
    options.roles ?? ['relay', 'events'],
    options.consumers ?? [CouponListingProjection, HomeContentProjection, StorePageProjection],
    options.overrides,
  );
  await firstAdminSeed.run(api.dataSource, test.environment);
  await demoSlotsSeed.run(api.dataSource, test.environment);
  const signIn = await api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  return {
    test,
    api,
    workers,
    admin: sessionFrom(signIn, signIn.json().userId).bearer,
    async close() {
      await workers.close();
      await api.close();
      await test.cleanup();
    },
  };
}

export async function merchantWithCoupon(
  market: Marketplace,
  overrides: Record<string, unknown> = {},
): Promise<{ merchant: Session; couponId: number }> {
  const { session } = await registerAndSignInMerchant(market.api.baseUrl);
  const couponId = await submitCoupon(market, session, overrides);
  return { merchant: session, couponId };
}

export async function submitCoupon(
  market: Marketplace,
  merchant: Session,
  overrides: Record<string, unknown> = {},
) {
  const response = await market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: merchant.bearer,
    payload: couponForm(overrides),
  });
  if (response.statusCode !== 201) throw new Error(`coupon not submitted: ${response.body}`);
  return response.json().id as number;
}

export function approve(market: Marketplace, couponId: number, slotId?: number) {
  return market.api.http.inject({
    method: 'POST',
    url: `/api/admin/coupons/${couponId}/approve`,
    headers: market.admin,
    payload: slotId === undefined ? {} : { slotId },
  });
}

export async function listed(market: Marketplace, query = '') {
  const response = await market.api.http.inject({ method: 'GET', url: `/api/coupons?perPage=100${query}` });
  return response.json() as { data: Array<{ id: number } & Record<string, unknown>>; total: number };
}

/** Waits until the listing shows (or stops showing) the coupon. */
export function untilListed(market: Marketplace, couponId: number, shown = true) {
  return eventually(
    async () => (await listed(market)).data.some((card) => card.id === couponId) === shown,
    `coupon ${couponId} to be ${shown ? 'listed' : 'gone'}`,
    5_000,
  );
}

/** Waits until every event recorded so far has been applied by every consumer. */
export function untilEventsProcessed(market: Marketplace, timeoutMs = 10_000) {
  return eventually(
    async () => {
      const [{ waiting }] = await market.api.dataSource.query(
        'SELECT count(*)::int AS waiting FROM outbox WHERE processed_at IS NULL AND failed_at IS NULL',
      );
      return waiting === 0;
    },
    'every event to be processed',
    timeoutMs,
  );
}

export const commandsOf = (market: Marketplace) => market.workers.module.get(CommandBus);
