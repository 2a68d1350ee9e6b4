import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { INVALID_INPUT_MESSAGE } from '@offers/api/infrastructure/http/validation';
import { formatRupees, paiseToRupees, rupeesToPaise } from '@offers/api/rules/money';
import { PRODUCT_FORM, PRODUCT_IMAGE_WIDTHS } from '@offers/api/rules/storefront';
import sharp from 'sharp';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import type { Marketplace } from '../support/marketplace.js';
import {
  createCategory,
  inject,
  png,
  pngOf,
  sendForm,
  startStorefront,
  submitProduct,
} from '../support/storefront.js';

let market: Marketplace;
let merchant: Session;
let other: Session;
let categoryId: number;
let othersCategoryId: number;
let image: Buffer;

beforeAll(async () => {
  market = await startStorefront('storefront products');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  other = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  categoryId = await createCategory(market, merchant, 'Face care');
  othersCategoryId = await createCategory(market, other, 'Their shelf');
  image = await pngOf(50, 40);
});

afterAll(async () => {
  await market?.close();
});

const simpleUpload = (fields: Record<string, unknown>, withImage = true) =>
  sendForm(
    market,
    'POST',
    '/api/merchant/products/simple',
    merchant.bearer,
    { MerchantID: '1', ProductName: 'Rose water toner', Price: '349', ...fields },
    withImage ? { ProductImage: png(image) } : {},
  );

describe('rupees', () => {
  it('are kept as paise and shown as a two-decimal string, or with ₹ and Indian grouping', () => {
    expect(rupeesToPaise('1299.5')).toBe(129950);
    expect(rupeesToPaise('0.07')).toBe(7);
    expect(paiseToRupees(129950)).toBe('1299.50');
    expect(paiseToRupees(5)).toBe('0.05');
    expect(formatRupees(12999950)).toBe('₹1,29,999.50');
    expect(formatRupees(1234567800)).toBe('₹1,23,45,678.00');
    expect(formatRupees(99900)).toBe('₹999.00');
    expect(formatRupees(100000)).toBe('₹1,000.00');
    expect(formatRupees(50)).toBe('₹0.50');
  });
});

describe('simple upload', () => {
  it('makes a pending product from the older form, with its price in paise and three image sizes', async () => {
    const response = await simpleUpload({ Price: '1299.5', MerchantURL: 'https://glow.example.in/toner' });

    expect(response.statusCode).toBe(201);
    const product = response.json();
    expect(product).toMatchObject({
      merchantId: merchant.id,
      productName: 'Rose water toner',
      price: '1299.50',
      merchantUrl: 'https://glow.example.in/toner',
      categoryId: null,
      status: 'pending',
      approved: false,
      message: PRODUCT_FORM.uploaded,
    });
    expect(Object.values(product.images)).toEqual([
      expect.stringMatching(/^\/api\/media\//),
      expect.stringMatching(/^\/api\/media\//),
      expect.stringMatching(/^\/api\/media\//),
    ]);
    const [row] = await market.api.dataSource.query('SELECT price_paise FROM products WHERE id = $1', [
      product.id,
    ]);
    expect(row.price_paise).toBe('129950');
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'ProductSubmitted' AND aggregate_id = $1",
      [String(product.id)],
    );
    expect(event.payload).toEqual({ merchantId: merchant.id, productName: 'Rose water toner' });
  });

  it.each([
    [{ ProductName: 'ab' }, { productName: [PRODUCT_FORM.productName.tooShort] }],
    [{ ProductName: '' }, { productName: [PRODUCT_FORM.productName.required] }],
    [{ Price: '' }, { price: [PRODUCT_FORM.price.required] }],
    [{ Price: '12.345' }, { price: [PRODUCT_FORM.price.invalid] }],
    [{ Price: 'abc' }, { price: [PRODUCT_FORM.price.invalid] }],
    [{ Price: '-5' }, { price: [PRODUCT_FORM.price.invalid] }],
    [{ Price: '0.00' }, { price: [PRODUCT_FORM.price.zero] }],
    [{ MerchantURL: 'glow dot in' }, { merchantUrl: [PRODUCT_FORM.merchantUrl.invalid] }],
  ])('refuses %j with its message', async (fields, errors) => {
    const response = await simpleUpload(fields);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message: INVALID_INPUT_MESSAGE, errors });
  });

  it('needs the product image, naming its field, along with the other fields’ errors', async () => {
    const [{ n: before }] = await market.api.dataSource.query('SELECT count(*)::int AS n FROM products');

    const noImage = await simpleUpload({}, false);
    const noImageNoName = await simpleUpload({ ProductName: 'ab' }, false);

    expect(noImage.json()).toEqual({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: { productImage: [PRODUCT_FORM.productImage.required] },
    });
    expect(noImageNoName.json().errors).toEqual({
      productName: [PRODUCT_FORM.productName.tooShort],
      productImage: [PRODUCT_FORM.productImage.required],
    });
    const [{ n: after }] = await market.api.dataSource.query('SELECT count(*)::int AS n FROM products');
    expect(after).toBe(before);
  });

  it('takes a JSON price as a number', async () => {
    const response = await inject(market, 'POST', '/api/merchant/products/simple', merchant.bearer, {
      productName: 'Kajal pencil',
      price: 199.9,
      productImage: image.toString('base64'),
    });

    expect(response.statusCode).toBe(201);
    expect(response.json().price).toBe('199.90');
  });
});

describe('store upload', () => {
  it('files the product under one of the merchant’s own categories', async () => {
    const response = await sendForm(
      market,
      'POST',
      '/api/merchant/products',
      merchant.bearer,
      {
        MerchantId: String(other.id),
        CategoryId: String(categoryId),
        ProductName: 'Neem face wash',
        Brand: 'Glow',
        Price: '349.00',
        Description: 'Gentle daily cleanser.',
      },
      { ImageSmall: png(image) },
    );

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      merchantId: merchant.id,
      categoryId,
      categoryName: 'Face care',
      brand: 'Glow',
      description: 'Gentle daily cleanser.',
      price: '349.00',
      status: 'pending',
    });
  });

  it("refuses another merchant's category, an unknown one and none, with a clear message", async () => {
    const theirs = await inject(market, 'POST', '/api/merchant/products', merchant.bearer, {
      categoryId: othersCategoryId,
      productName: 'Sneaky serum',
      price: '10',
      imageLarge: image.toString('base64'),
    });
    const unknown = await inject(market, 'POST', '/api/merchant/products', merchant.bearer, {
      categoryId: 99999,
      productName: 'Sneaky serum',
      price: '10',
      imageLarge: image.toString('base64'),
    });
    const none = await inject(market, 'POST', '/api/merchant/products', merchant.bearer, {
      productName: 'Sneaky serum',
      price: '10',
      imageLarge: image.toString('base64'),
    });

    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toEqual({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: { categoryId: [PRODUCT_FORM.categoryId.notYours] },
    });
    expect(unknown.json().errors).toEqual({ categoryId: [PRODUCT_FORM.categoryId.notYours] });
    expect(none.json().errors).toEqual({ categoryId: [PRODUCT_FORM.categoryId.required] });
    const sneaky = await market.api.dataSource.query(
      "SELECT 1 FROM products WHERE product_name = 'Sneaky serum'",
    );
    expect(sneaky).toEqual([]);
  });

  it('needs at least one image', async () => {
    const response = await inject(market, 'POST', '/api/merchant/products', merchant.bearer, {
      categoryId,
      productName: 'Imageless',
      price: '10',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ imageLarge: [PRODUCT_FORM.images.required] });
  });

  it('makes three sizes of the expected widths from one image, each readable through the media API', async () => {
    const photo = await pngOf(1600, 900);

    const response = await sendForm(
      market,
      'POST',
      '/api/merchant/products',
      merchant.bearer,
      { CategoryId: String(categoryId), ProductName: 'Big photo serum', Price: '999' },
      { ImageLarge: png(photo, 'photo.png') },
    );

    expect(response.statusCode).toBe(201);
    const { images } = response.json();
    expect(new Set(Object.values(images)).size).toBe(3);
    for (const size of ['small', 'medium', 'large'] as const) {
      const served = await fetch(new URL(images[size], market.api.baseUrl));
      expect(served.status).toBe(200);
      const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(metadata.width).toBe(PRODUCT_IMAGE_WIDTHS[size]);
      expect(metadata.height).toBe(Math.round((PRODUCT_IMAGE_WIDTHS[size] * 900) / 1600));
    }
    const stored = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM media WHERE id = ANY($1::uuid[])',
      [Object.values(images).map((url) => String(url).split('/').pop())],
    );
    expect(stored).toEqual([{ n: 3 }]);
  });

  it('keeps sizes given as they are, and never enlarges a small image', async () => {
    const small = await pngOf(100, 100, { r: 10, g: 20, b: 30 });
    const large = await pngOf(500, 500, { r: 90, g: 20, b: 30 });

    const both = await sendForm(
      market,
      'POST',
      '/api/merchant/products',
      merchant.bearer,
      { CategoryId: String(categoryId), ProductName: 'Two images', Price: '5' },
      { ImageSmall: png(small), ImageLarge: png(large) },
    );

    const { images } = both.json();
    const widthOf = async (url: string) =>
      (
        await sharp(
          Buffer.from(await (await fetch(new URL(url, market.api.baseUrl))).arrayBuffer()),
        ).metadata()
      ).width;
    expect(await widthOf(images.small)).toBe(100);
    expect(await widthOf(images.medium)).toBe(500);
    expect(await widthOf(images.large)).toBe(500);
  });
});

describe("a merchant's own products", () => {
  it('lists them with status, reason and advised changes, react-admin style', async () => {
    const rejected = await submitProduct(market, merchant, categoryId, { productName: 'Blurry photo' });
    await inject(market, 'POST', `/api/admin/products/${rejected}/reject`, market.admin, {
      reason: 'Photo is blurred',
      advisedChanges: 'Upload a sharper photo',
    });

    const list = await inject(
      market,
      'GET',
      `/api/merchant/products?filter=${encodeURIComponent('{"status":"rejected"}')}`,
      merchant.bearer,
    );

    const byPrice = await inject(
      market,
      'GET',
      `/api/merchant/products?sort=${encodeURIComponent('["price","DESC"]')}&range=[0,99]`,
      merchant.bearer,
    );
    const prices = byPrice.json().map((product: { price: string }) => Number(product.price));

    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(list.headers['content-range']).toMatch(/^products 0-0\/1$/);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: rejected,
        status: 'rejected',
        rejectionReason: 'Photo is blurred',
        advisedChanges: 'Upload a sharper photo',
      }),
    ]);
  });

  it('sends an edited product back to review, clearing the old verdict; an unchanged save changes nothing', async () => {
    const id = await submitProduct(market, merchant, categoryId, { productName: 'Edit me' });
    await inject(market, 'POST', `/api/admin/products/${id}/reject`, market.admin, {});
    const record = (await inject(market, 'GET', `/api/merchant/products/${id}`, merchant.bearer)).json();

    const unchanged = await inject(market, 'PUT', `/api/merchant/products/${id}`, merchant.bearer, record);
    const edited = await inject(market, 'PUT', `/api/merchant/products/${id}`, merchant.bearer, {
      ...record,
      price: '150.25',
      brand: 'Glow Naturals',
    });
    const moved = await inject(market, 'PUT', `/api/merchant/products/${id}`, merchant.bearer, {
      categoryId: othersCategoryId,
    });

    expect(unchanged.json()).toMatchObject({ status: 'rejected', rejectionReason: 'not clear text' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      status: 'pending',
      price: '150.25',
      brand: 'Glow Naturals',
      rejectionReason: null,
      advisedChanges: null,
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors).toEqual({ categoryId: [PRODUCT_FORM.categoryId.notYours] });
    const types = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'Product' AND aggregate_id = $1 ORDER BY position",
      [String(id)],
    );
    expect(types.map((row: { type: string }) => row.type)).toEqual([
      'ProductSubmitted',
      'ProductRejected',
      'ProductUpdated',
    ]);
  });

  it("answers 404 for another merchant's product, and changes nothing", async () => {
    const id = await submitProduct(market, other, othersCategoryId);
    const snapshot = () => market.api.dataSource.query('SELECT * FROM products WHERE id = $1', [id]);
    const before = await snapshot();

    const read = await inject(market, 'GET', `/api/merchant/products/${id}`, merchant.bearer);
    const change = await inject(market, 'PUT', `/api/merchant/products/${id}`, merchant.bearer, {
      productName: 'Taken over',
    });
    const removal = await inject(market, 'DELETE', `/api/merchant/products/${id}`, merchant.bearer);
    const listed = await inject(market, 'GET', '/api/merchant/products?range=[0,99]', merchant.bearer);

    expect([read.statusCode, change.statusCode, removal.statusCode]).toEqual([404, 404, 404]);
    expect(await snapshot()).toEqual(before);
    expect(listed.json().map((product: { id: number }) => product.id)).not.toContain(id);
  });

  it('deletes its own product', async () => {
    const id = await submitProduct(market, merchant, categoryId, { productName: 'Short lived' });

    const removed = await inject(market, 'DELETE', `/api/merchant/products/${id}`, merchant.bearer);

    expect(removed.json()).toMatchObject({ id, productName: 'Short lived' });
    expect((await inject(market, 'GET', `/api/merchant/products/${id}`, merchant.bearer)).statusCode).toBe(
      404,
    );
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'ProductDeleted' AND aggregate_id = $1",
      [String(id)],
    );
    expect(event.payload).toEqual({ merchantId: merchant.id });
  });
});
