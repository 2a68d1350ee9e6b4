import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { INVALID_INPUT_MESSAGE } from '@offers/api/infrastructure/http/validation';
import { FORBIDDEN_ADDRESS } from '@offers/api/media/image-sources';
import { COUPON_FORM } from '@offers/api/rules/coupons';
import { CATEGORY_FORM, STORE_FORM } from '@offers/api/rules/storefront';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import type { Marketplace } from '../support/marketplace.js';
import {
  createCategory,
  inject,
  png,
  pngOf,
  saveStore,
  sendForm,
  startStorefront,
  submitProduct,
} from '../support/storefront.js';

let market: Marketplace;
let merchant: Session;
let other: Session;

beforeAll(async () => {
  market = await startStorefront('storefront store');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  other = (await registerAndSignInMerchant(market.api.baseUrl)).session;
});

afterAll(async () => {
  await market?.close();
});

const imageBytes = async (url: string) => {
  const response = await fetch(new URL(url, market.api.baseUrl));
  return Buffer.from(await response.arrayBuffer());
};

describe('store', () => {
  it('is blank before the first save, and needs a store name', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);

    const blank = await inject(market, 'GET', '/api/merchant/store', session.bearer);
    const nameless = await inject(market, 'PUT', '/api/merchant/store', session.bearer, { storeName: '  ' });
    const tooLong = await inject(market, 'PUT', '/api/merchant/store', session.bearer, {
      storeName: 'x'.repeat(101),
    });

    expect(blank.json()).toMatchObject({ id: session.id, storeId: null, storeName: '', logoUrl: null });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json()).toEqual({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: { storeName: [STORE_FORM.storeName.required] },
    });
    expect(tooLong.json().errors).toEqual({ storeName: [STORE_FORM.storeName.tooLong] });
    const rows = await market.api.dataSource.query('SELECT 1 FROM merchant_stores WHERE merchant_id = $1', [
      session.id,
    ]);
    expect(rows).toEqual([]);
  });

  it("takes the older client's multipart form with image files, ignoring the merchant id it sends", async () => {
    const logo = await pngOf(64, 64);
    const banner = await pngOf(800, 200);

    const saved = await sendForm(
      market,
      'PUT',
      '/api/merchant/store',
      merchant.browser,
      {
        MerchantID: String(other.id),
        StoreName: 'Glow Store',
        StoreAddress: '4 Park Street, Kolkata',
        Tagline: 'Skin care made in India',
        AboutDescription: 'Small-batch skin care.',
        IsActive: 'true',
      },
      { MerchantLogo: png(logo), LandingBanner: png(banner) },
    );

    expect(saved.statusCode).toBe(200);
    const store = saved.json();
    expect(store).toMatchObject({
      merchantId: merchant.id,
      storeName: 'Glow Store',
      storeAddress: '4 Park Street, Kolkata',
      tagline: 'Skin care made in India',
      aboutDescription: 'Small-batch skin care.',
      isActive: true,
      heroBannerUrl: null,
    });
    expect(store.logoUrl).toMatch(/^\/api\/media\/[0-9a-f-]{36}$/);
    expect(await imageBytes(store.logoUrl)).toEqual(logo);
    expect(await imageBytes(store.landingBannerUrl)).toEqual(banner);
    expect((await inject(market, 'GET', '/api/merchant/store', other.bearer)).json().storeName).toBe('');
  });

  it('takes images as a data URL, bare base64 or null (removed), and keeps those left out', async () => {
    const hero = await pngOf(300, 100);
    const before = (await inject(market, 'GET', '/api/merchant/store', merchant.bearer)).json();

    const withHero = await inject(market, 'PUT', '/api/merchant/store', merchant.bearer, {
      ...before,
      storeName: 'Glow Store',
      heroBannerImage: hero.toString('base64'),
      merchantLogo: null,
    });
    const dataUrl = await inject(market, 'PUT', '/api/merchant/store', merchant.bearer, {
      storeName: 'Glow Store',
      merchantLogo: `data:image/png;base64,${hero.toString('base64')}`,
    });

    expect(withHero.statusCode).toBe(200);
    expect(withHero.json().logoUrl).toBeNull();
    expect(withHero.json().landingBannerUrl).toBe(before.landingBannerUrl);
    expect(await imageBytes(withHero.json().heroBannerUrl)).toEqual(hero);
    expect(dataUrl.json().logoUrl).toBe(withHero.json().heroBannerUrl);
    expect(dataUrl.json().tagline).toBe('Skin care made in India');
  });

  it('refuses a file that is not an image, and one over 5 MB, changing nothing', async () => {
    const before = await market.api.dataSource.query('SELECT * FROM merchant_stores WHERE merchant_id = $1', [
      merchant.id,
    ]);

    const text = await sendForm(
      market,
      'PUT',
      '/api/merchant/store',
      merchant.bearer,
      { StoreName: 'Renamed' },
      { MerchantLogo: { name: 'logo.png', type: 'image/png', bytes: Buffer.from('<svg>not really</svg>') } },
    );
    const huge = await sendForm(
      market,
      'PUT',
      '/api/merchant/store',
      merchant.bearer,
      { StoreName: 'Renamed' },
      { LandingBanner: png(Buffer.alloc(5 * 1024 * 1024 + 10)) },
    );

    const jsonTooBig = await inject(market, 'PUT', '/api/merchant/store', merchant.bearer, {
      storeName: 'Renamed',
      landingBanner: Buffer.alloc(900_000).toString('base64'),
    });

    expect(text.statusCode).toBe(400);
    expect(text.json().errors).toEqual({ merchantLogo: [COUPON_FORM.adPost.notImage] });
    expect(jsonTooBig.statusCode).toBe(413);
    expect(huge.statusCode).toBe(413);
    expect(
      await market.api.dataSource.query('SELECT * FROM merchant_stores WHERE merchant_id = $1', [
        merchant.id,
      ]),
    ).toEqual(before);
  });

  it("records StoreSaved for the session's merchant on each save, leaving other stores alone", async () => {
    const before = (await inject(market, 'GET', '/api/merchant/store', merchant.bearer)).json();

    await saveStore(market, other, { storeName: 'Other Store', merchantId: merchant.id });

    const events = await market.api.dataSource.query(
      "SELECT aggregate_id, payload FROM outbox WHERE type = 'StoreSaved' AND aggregate_id = $1",
      [String(other.id)],
    );

    expect(events).toEqual([{ aggregate_id: String(other.id), payload: { merchantId: other.id } }]);
    expect((await inject(market, 'GET', '/api/merchant/store', merchant.bearer)).json()).toEqual(before);
    expect((await inject(market, 'GET', '/api/merchant/store', other.bearer)).json().storeName).toBe(
      'Other Store',
    );
  });

  it('fetches an image given as a URL only from a public address', async () => {
    const response = await inject(market, 'PUT', '/api/merchant/store', merchant.bearer, {
      storeName: 'Glow Store',
      merchantLogo: `${market.api.baseUrl}/api/media/00000000-0000-0000-0000-000000000000`,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ merchantLogo: [FORBIDDEN_ADDRESS] });
  });
});

describe('merchant categories', () => {
  it("creates a category with the spec's message, for the session's merchant whatever the body says", async () => {
    const created = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      merchantId: other.id,
      categoryName: '  Face serums ',
      description: 'Serums for every skin',
    });

    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      categoryName: 'Face serums',
      description: 'Serums for every skin',
      isActive: true,
      merchantId: merchant.id,
      message: CATEGORY_FORM.created,
    });
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'MerchantCategoryCreated' AND aggregate_id = $1",
      [String(created.json().id)],
    );
    expect(event.payload).toEqual({ merchantId: merchant.id });
  });

  it('needs a name of at most 100 characters, and refuses unknown fields', async () => {
    const missing = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      description: 'x',
    });
    const long = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      categoryName: 'x'.repeat(101),
    });
    const exactly100 = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      categoryName: 'y'.repeat(100),
    });
    const unknown = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      categoryName: 'Lips',
      colour: 'red',
    });

    expect(missing.json()).toEqual({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: { categoryName: [CATEGORY_FORM.categoryName.required] },
    });
    expect(long.json().errors).toEqual({ categoryName: [CATEGORY_FORM.categoryName.tooLong] });
    expect(exactly100.statusCode).toBe(201);
    expect(unknown.statusCode).toBe(400);
  });

  it("refuses a name the merchant already has, ignoring case, but not another merchant's", async () => {
    await createCategory(market, merchant, 'Hair Care');

    const again = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
      categoryName: 'hair care',
    });
    const elsewhere = await inject(market, 'POST', '/api/merchant/categories', other.bearer, {
      categoryName: 'HAIR CARE',
    });
    const renamed = await inject(
      market,
      'PUT',
      `/api/merchant/categories/${await createCategory(market, merchant, 'Hair oils')}`,
      merchant.bearer,
      { categoryName: 'HAIR care' },
    );

    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: CATEGORY_FORM.categoryName.taken,
      errors: { categoryName: [CATEGORY_FORM.categoryName.taken] },
    });
    expect(elsewhere.statusCode).toBe(201);
    expect(renamed.statusCode).toBe(409);
  });

  it('lists only its own categories, react-admin style, by ids too', async () => {
    const theirs = await createCategory(market, other, 'Only mine');
    const mine = [
      await createCategory(market, merchant, 'Lips'),
      await createCategory(market, merchant, 'Eyes'),
    ];

    const list = await inject(
      market,
      'GET',
      `/api/merchant/categories?sort=${encodeURIComponent('["categoryName","ASC"]')}&range=${encodeURIComponent('[0,1]')}`,
      merchant.bearer,
    );
    const all = await inject(market, 'GET', '/api/merchant/categories?range=[0,99]', merchant.bearer);

    expect(list.json()).toHaveLength(2);
    expect(list.headers['content-range']).toMatch(/^categories 0-1\/\d+$/);
    expect(all.json().every((category: { merchantId: number }) => category.merchantId === merchant.id)).toBe(
      true,
    );
    expect(all.json().map((category: { categoryName: string }) => category.categoryName)).not.toContain(
      'Only mine',
    );
    const many = await inject(
      market,
      'GET',
      `/api/merchant/categories?filter=${encodeURIComponent(JSON.stringify({ id: [...mine, theirs] }))}`,
      merchant.bearer,
    );
    expect(many.json().map((category: { id: number }) => category.id)).toEqual(mine);
  });

  it("answers 404 for another merchant's category, and changes nothing", async () => {
    const id = await createCategory(market, other, 'Not yours');
    const snapshot = () =>
      market.api.dataSource.query('SELECT * FROM merchant_categories WHERE id = $1', [id]);
    const before = await snapshot();

    const read = await inject(market, 'GET', `/api/merchant/categories/${id}`, merchant.bearer);
    const change = await inject(market, 'PUT', `/api/merchant/categories/${id}`, merchant.bearer, {
      categoryName: 'Taken over',
    });
    const removal = await inject(market, 'DELETE', `/api/merchant/categories/${id}`, merchant.bearer);

    expect([read.statusCode, change.statusCode, removal.statusCode]).toEqual([404, 404, 404]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to delete a category holding products (409) but deactivates it, and deletes an empty one', async () => {
    const stocked = await createCategory(market, merchant, 'Stocked');
    const empty = await createCategory(market, merchant, 'Empty');
    await submitProduct(market, merchant, stocked);

    const refused = await inject(market, 'DELETE', `/api/merchant/categories/${stocked}`, merchant.bearer);
    const deactivated = await inject(market, 'PUT', `/api/merchant/categories/${stocked}`, merchant.bearer, {
      isActive: false,
    });
    const removed = await inject(market, 'DELETE', `/api/merchant/categories/${empty}`, merchant.bearer);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CATEGORY_FORM.hasProducts);
    expect(deactivated.json()).toMatchObject({
      id: stocked,
      isActive: false,
      categoryName: 'Stocked',
      productCount: 1,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: empty, categoryName: 'Empty', productCount: 0 });
    expect(
      (await inject(market, 'GET', `/api/merchant/categories/${empty}`, merchant.bearer)).statusCode,
    ).toBe(404);
    const types = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'MerchantCategory' AND aggregate_id = ANY($1) ORDER BY position",
      [[String(stocked), String(empty)]],
    );
    expect(types.map((row: { type: string }) => row.type)).toEqual([
      'MerchantCategoryCreated',
      'MerchantCategoryCreated',
      'MerchantCategoryUpdated',
      'MerchantCategoryDeleted',
    ]);
  });
});
