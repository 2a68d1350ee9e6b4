import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_STORE_MERCHANT, demoStorefrontSeed } from '@offers/api/demo/storefront';
import { PRODUCT_REVIEW, STORE_FORM } from '@offers/api/rules/storefront';
import { buildStorePage } from '@offers/api/storefront/queries/store-page';
import { StorePageProjection } from '../../workers/src/consumers/store-page.projection.js';
import { EventDispatcher } from '../../workers/src/events/event-dispatcher.js';
import { rebuildProjection } from '../../workers/src/events/projection-rebuild.js';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import type { Marketplace } from '../support/marketplace.js';
import {
  approveProduct,
  createCategory,
  inject,
  png,
  pngOf,
  productsOnPage,
  saveStore,
  sendForm,
  startStorefront,
  storePage,
  submitProduct,
  untilOnPage,
} from '../support/storefront.js';
import { eventually } from '../support/test-environment.js';
import { startWorkers } from '../support/workers-app.js';

let market: Marketplace;
let merchant: Session;
let categoryId: number;

beforeAll(async () => {
  market = await startStorefront('storefront page');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  await saveStore(market, merchant, {
    storeName: 'Glow Store',
    storeAddress: '4 Park Street, Kolkata',
    aboutDescription: 'Small-batch skin care.',
  });
  categoryId = await createCategory(market, merchant, 'Face care');
});

afterAll(async () => {
  await market?.close();
});

/** Waits until every event recorded so far has been applied by the consumers. */
function untilProcessed() {
  return eventually(async () => {
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL',
    );
    return n === 0;
  }, 'every event to be processed');
}

describe('the public store page', () => {
  it('shows an approved product within 2 s, in the shape of the contract', async () => {
    const productId = await submitProduct(market, merchant, categoryId, {
      productName: 'Vitamin C serum',
      price: '1299.5',
      merchantUrl: 'https://glow.example.in/serum',
    });

    const approved = await approveProduct(market, productId);

    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', approved: true });
    await untilOnPage(market, merchant.id, productId, true, 2_000);
    const page = await storePage(market, merchant.id);
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = page.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'merchantId',
        'slug',
        'storeName',
        'storeAddress',
        'tagline',
        'aboutDescription',
        'logoUrl',
        'landingBannerUrl',
        'heroBannerUrl',
        'updatedAt',
        'categories',
        'uncategorised',
        'cashback',
      ].sort(),
    );
    expect(body.slug).toMatch(/^glow(-\d+)?$/);
    const bySlug = await market.api.http.inject({ method: 'GET', url: `/api/stores/${body.slug}` });
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.json()).toEqual(body);
    expect(
      (await market.api.http.inject({ method: 'GET', url: '/api/stores/no-such-store' })).statusCode,
    ).toBe(404);
    expect(
      (await market.api.http.inject({ method: 'GET', url: '/api/stores/Not%20a%20slug' })).statusCode,
    ).toBe(404);
    expect(body).toMatchObject({
      merchantId: merchant.id,
      storeName: 'Glow Store',
      storeAddress: '4 Park Street, Kolkata',
      tagline: 'Skin care made in India',
      aboutDescription: 'Small-batch skin care.',
      logoUrl: null,
    });
    const shelf = body.categories.find((category: { id: number }) => category.id === categoryId);
    expect(shelf).toMatchObject({ categoryName: 'Face care', description: 'All face care' });
    expect(shelf.products).toEqual([
      {
        id: productId,
        productName: 'Vitamin C serum',
        brand: 'Glow',
        description: 'Brightening serum, 30 ml.',
        price: '1299.50',
        merchantUrl: 'https://glow.example.in/serum',
        images: {
          small: expect.stringMatching(/^\/api\/media\/[0-9a-f-]{36}$/),
          medium: expect.stringMatching(/^\/api\/media\/[0-9a-f-]{36}$/),
          large: expect.stringMatching(/^\/api\/media\/[0-9a-f-]{36}$/),
        },
      },
    ]);
  });

  it('puts products without a category under uncategorised', async () => {
    const simple = await sendForm(
      market,
      'POST',
      '/api/merchant/products/simple',
      merchant.bearer,
      { ProductName: 'Rose water', Price: '99' },
      { ProductImage: png(await pngOf(20, 20)) },
    );
    await approveProduct(market, simple.json().id);

    await untilOnPage(market, merchant.id, simple.json().id);
    const page = (await storePage(market, merchant.id)).json();

    expect(page.uncategorised.map((product: { id: number }) => product.id)).toContain(simple.json().id);
  });

  it('never shows a rejected product; rejection takes the defaults', async () => {
    const productId = await submitProduct(market, merchant, categoryId, { productName: 'Blurry photo' });

    const rejected = await inject(market, 'POST', `/api/admin/products/${productId}/reject`, market.admin);
    await untilProcessed();

    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      rejectionReason: PRODUCT_REVIEW.defaultReason,
      advisedChanges: PRODUCT_REVIEW.defaultAdvisedChanges,
      message: PRODUCT_REVIEW.rejected(productId),
    });
    expect(await productsOnPage(market, merchant.id)).not.toContain(productId);
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'ProductRejected' AND aggregate_id = $1",
      [String(productId)],
    );
    expect(event.payload).toEqual({
      merchantId: merchant.id,
      productName: 'Blurry photo',
      reason: 'not clear text',
      advisedChanges: 'no',
    });
  });

  it('takes an edited product off the page until it is approved again', async () => {
    const productId = await submitProduct(market, merchant, categoryId, { productName: 'Neem face wash' });
    await approveProduct(market, productId);
    await untilOnPage(market, merchant.id, productId);

    const edited = await inject(market, 'PUT', `/api/merchant/products/${productId}`, merchant.bearer, {
      price: '379',
    });

    expect(edited.json().status).toBe('pending');
    await untilOnPage(market, merchant.id, productId, false);
    await approveProduct(market, productId);
    await untilOnPage(market, merchant.id, productId);
    const page = (await storePage(market, merchant.id)).json();
    const shown = page.categories
      .flatMap((c: { products: unknown[] }) => c.products)
      .find((product: { id: number }) => product.id === productId);
    expect(shown.price).toBe('379.00');
  });

  it('hides the products of a deactivated category, and a deleted product', async () => {
    const shelf = await createCategory(market, merchant, 'Seasonal');
    const seasonal = await submitProduct(market, merchant, shelf, { productName: 'Holi colours' });
    const doomed = await submitProduct(market, merchant, categoryId, { productName: 'Discontinued' });
    await approveProduct(market, seasonal);
    await approveProduct(market, doomed);
    await untilOnPage(market, merchant.id, doomed);

    await inject(market, 'PUT', `/api/merchant/categories/${shelf}`, merchant.bearer, { isActive: false });
    await inject(market, 'DELETE', `/api/merchant/products/${doomed}`, merchant.bearer);

    await untilOnPage(market, merchant.id, doomed, false);
    await untilOnPage(market, merchant.id, seasonal, false);
    const page = (await storePage(market, merchant.id)).json();
    expect(page.categories.map((category: { id: number }) => category.id)).not.toContain(shelf);
  });

  it('answers 404 for an unknown store and an inactive one, and the older address gives the same page', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    await saveStore(market, session, { storeName: 'Closing down' });
    await eventually(async () => (await storePage(market, session.id)).statusCode === 200, 'the page');

    const legacy = await inject(market, 'GET', `/api/MerchantPage/GetMerchantStore/${session.id}`);
    expect(legacy.body).toBe((await storePage(market, session.id)).body);
    await saveStore(market, session, { storeName: 'Closing down', isActive: false });

    await eventually(async () => (await storePage(market, session.id)).statusCode === 404, 'the page to go');
    const unknown = await storePage(market, 999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(STORE_FORM.notFound);
    expect(
      (await storePage(market, (await registerAndSignInMerchant(market.api.baseUrl)).session.id)).statusCode,
    ).toBe(404);
  });
});

describe('ready pages', () => {
  it('answer a repeated request with the same bytes and headers, and follow the next change', async () => {
    const url = `/api/stores/${merchant.id}`;
    const headers = { origin: 'http://localhost:5173' };
    await eventually(async () => (await inject(market, 'GET', url)).statusCode === 200, 'the page');

    const first = await inject(market, 'GET', url, headers);
    const second = await inject(market, 'GET', url, headers);
    await saveStore(market, merchant, { storeName: 'Glow Store', tagline: 'Now with hair care' });

    expect(second.body).toBe(first.body);
    for (const response of [first, second]) {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    await eventually(
      async () => (await inject(market, 'GET', url)).json().tagline === 'Now with hair care',
      'the new tagline',
      2_000,
    );
    const changed = await inject(market, 'GET', url);
    const revalidated = await inject(market, 'GET', url, { 'if-none-match': changed.headers.etag as string });
    const outdated = await inject(market, 'GET', url, { 'if-none-match': first.headers.etag as string });
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(outdated.statusCode).toBe(200);
    expect(outdated.body).toBe(changed.body);
  });
});

describe('review', () => {
  it('refuses illegal transitions with 409 and a clear message', async () => {
    const productId = await submitProduct(market, merchant, categoryId);
    await approveProduct(market, productId);

    const again = await approveProduct(market, productId);
    const reject = await inject(market, 'POST', `/api/admin/products/${productId}/reject`, market.admin, {});
    const missing = await approveProduct(market, 999_999);

    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PRODUCT_REVIEW.notPending('approved'));
    expect(reject.statusCode).toBe(409);
    expect(missing.statusCode).toBe(404);
  });

  it('lets one of two admins approving at once win; the other gets 409', async () => {
    const productId = await submitProduct(market, merchant, categoryId);

    const answers = await Promise.all([approveProduct(market, productId), approveProduct(market, productId)]);

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const events = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'ProductApproved' AND aggregate_id = $1",
      [String(productId)],
    );
    expect(events).toEqual([{ n: 1 }]);
  });

  it('pages the queues in fives, by status', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const shelf = await createCategory(market, session, 'Queue');
    for (let i = 0; i < 6; i += 1)
      await submitProduct(market, session, shelf, { productName: `Queued ${i}` });
    const list = (status: string) =>
      inject(
        market,
        'GET',
        `/api/admin/products?filter=${encodeURIComponent(JSON.stringify({ status }))}`,
        market.admin,
      );

    const pending = await list('pending');
    const approved = await list('approved');
    const rejected = await list('rejected');

    expect(pending.json()).toHaveLength(5);
    expect(pending.headers['content-range']).toMatch(/^products 0-4\/\d+$/);
    for (const [answer, status] of [
      [pending, 'pending'],
      [approved, 'approved'],
      [rejected, 'rejected'],
    ] as const) {
      expect(answer.json().length).toBeGreaterThan(0);
      expect(answer.json().every((product: { status: string }) => product.status === status)).toBe(true);
    }
    expect(pending.json()[0]).toEqual(
      expect.objectContaining({
        merchantName: 'Glow Cosmetics',
        imageUrl: expect.any(String),
        price: expect.any(String),
      }),
    );
  });
});

describe('the read model', () => {
  it('rebuilt from the event log equals the live one', async () => {
    await untilProcessed();
    const live = await market.api.dataSource.query(
      'SELECT merchant_id, document::text FROM store_pages ORDER BY 1',
    );
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((consumer) => consumer instanceof StorePageProjection)!;

    await rebuildProjection(market.workers.dataSource, projection);

    const rebuilt = await market.api.dataSource.query(
      'SELECT merchant_id, document::text FROM store_pages ORDER BY 1',
    );
    expect(live.length).toBeGreaterThan(0);
    expect(rebuilt).toEqual(live);
  });
});

describe('two workers', () => {
  it('leave each page equal to a fresh build after a burst of concurrent changes', async () => {
    const second = await startWorkers(market.test.environment, ['events'], [StorePageProjection]);
    try {
      const { session } = await registerAndSignInMerchant(market.api.baseUrl);
      await saveStore(market, session, { storeName: 'Busy store' });
      const shelf = await createCategory(market, session, 'Busy shelf');
      const ids = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          submitProduct(market, session, shelf, { productName: `Busy ${i}` }),
        ),
      );

      await Promise.all(ids.map((id) => approveProduct(market, id)));
      await Promise.all(
        ids
          .slice(0, 3)
          .map((id) =>
            inject(market, 'PUT', `/api/merchant/products/${id}`, session.bearer, { price: '77' }),
          ),
      );
      await saveStore(market, session, { storeName: 'Busy store', tagline: 'Still busy' });
      await untilProcessed();

      const [row] = await market.api.dataSource.query(
        'SELECT document::text AS document FROM store_pages WHERE merchant_id = $1',
        [session.id],
      );
      const fresh = await buildStorePage(market.api.dataSource.manager, session.id);
      expect(JSON.parse(row.document).categories[0].products).toHaveLength(5);
      expect(row.document).toBe(JSON.stringify(fresh));
    } finally {
      await second.close();
    }
  });
});

describe('the demo seed', () => {
  it('makes one merchant with a store, three categories and approved products, once', async () => {
    const first = await demoStorefrontSeed.run(market.api.dataSource, market.test.environment);
    const second = await demoStorefrontSeed.run(market.api.dataSource, market.test.environment);

    expect(first).toMatch(/store page/);
    expect(second).toBeUndefined();
    const [{ id }] = await market.api.dataSource.query('SELECT id FROM merchants WHERE user_name = $1', [
      DEMO_STORE_MERCHANT.userName,
    ]);
    const page = await eventually(async () => {
      const response = await storePage(market, id);
      return response.statusCode === 200 && response.json();
    }, 'the demo store page');
    expect(page.categories).toHaveLength(3);
    expect(page.categories.flatMap((c: { products: unknown[] }) => c.products).length).toBeGreaterThanOrEqual(
      3,
    );
    expect(page.logoUrl).toMatch(/^\/api\/media\//);
    const signIn = await inject(
      market,
      'POST',
      '/api/auth/merchants/login',
      {},
      {
        userName: DEMO_STORE_MERCHANT.userName,
        password: DEMO_STORE_MERCHANT.password,
      },
    );
    expect(signIn.statusCode).toBe(200);
  });
});
