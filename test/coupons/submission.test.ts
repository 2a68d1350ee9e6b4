import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COUPON_FORM as F } from '@offers/api/rules';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { couponForm, multipart, ONE_PIXEL_PNG } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let merchant: Session;

beforeAll(async () => {
  market = await startMarketplace('coupon submission');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
});

afterAll(async () => {
  await market?.close();
});

const submit = (payload: unknown, headers: Record<string, string> = {}) =>
  market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: { ...merchant.bearer, ...headers },
    payload,
  });

const past = new Date(Date.now() - 24 * 3600_000).toISOString();

describe('the coupon form', () => {
  it.each<[string, unknown, string]>([
    ['couponName', undefined, F.couponName.required],
    ['couponName', 'Di', F.couponName.tooShort],
    ['couponCode', undefined, F.couponCode.required],
    ['couponCode', 'AB1', F.couponCode.invalid],
    ['couponCode', 'ABCDEFGHIJKLMNOP', F.couponCode.invalid],
    ['couponCode', 'GLOW 25', F.couponCode.invalid],
    ['expiryDate', undefined, F.expiryDate.required],
    ['expiryDate', 'next diwali', F.expiryDate.invalid],
    ['expiryDate', past, F.expiryDate.past],
    ['termsAndConditions', undefined, F.termsAndConditions.required],
    ['termsAndConditions', 'One', F.termsAndConditions.tooShort],
    ['title', undefined, F.title.required],
    ['title', 'x'.repeat(51), F.title.tooLong],
    ['description', undefined, F.description.required],
    ['description', 'x'.repeat(201), F.description.tooLong],
    ['percentage', undefined, F.percentage.required],
    ['percentage', '0', F.percentage.invalid],
    ['percentage', '101', F.percentage.invalid],
    ['percentage', '12.5', F.percentage.invalid],
    ['percentage', 'ten', F.percentage.invalid],
    ['discountValue', undefined, F.discountValue.required],
    ['discountValue', '0', F.discountValue.invalid],
    ['discountValue', '-5', F.discountValue.invalid],
    ['requestedSlotId', undefined, F.requestedSlotId.required],
    ['requestedSlotId', '999', F.requestedSlotId.unknown],
    ['merchantUrl', 'glow dot in', F.merchantUrl.invalid],
    ['categoryIds', undefined, F.categoryIds.required],
    ['categoryIds', [99], F.categoryIds.unknown],
  ])('refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await submit(couponForm({ [field]: value }));

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });

  it('accepts the older client multipart form, with its field names and ad image, and ignores its merchant id', async () => {
    const form = couponForm();
    const { headers, payload } = multipart(
      {
        MerchantId: '9',
        CouponName: form.couponName,
        CouponCode: form.couponCode,
        ExpiryDate: form.expiryDate,
        TermsAndConditions: form.termsAndConditions,
        Title: form.title,
        Description: form.description,
        Percentage: form.percentage,
        DiscountValue: form.discountValue,
        RequestedSlotId: form.requestedSlotId,
        MerchantURL: form.merchantUrl,
        CategoryIds: ['1', '3'],
      },
      { AdPost: { name: 'ad.png', type: 'image/png', bytes: ONE_PIXEL_PNG } },
    );

    const response = await submit(payload, headers);

    expect(response.statusCode).toBe(201);
    const coupon = response.json();
    expect(coupon).toMatchObject({
      merchantId: merchant.id,
      status: 'pending',
      couponCode: form.couponCode,
      categoryIds: [1, 3],
      imageUrl: expect.stringMatching(/^\/api\/media\/[0-9a-f-]{36}$/),
    });
    const image = await market.api.http.inject({ method: 'GET', url: coupon.imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await market.api.http.inject({
      method: 'GET',
      url: coupon.imageUrl,
      headers: { 'if-none-match': String(image.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'CouponSubmitted' AND aggregate_id = $1",
      [String(coupon.id)],
    );
    expect(event.payload).toMatchObject({ merchantId: merchant.id });
  });

  it('refuses an ad that is not an image, whatever it calls itself', async () => {
    const { headers, payload } = multipart(couponForm(), {
      adPost: {
        name: 'ad.png',
        type: 'image/png',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      },
    });

    const response = await submit(payload, headers);

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ adPost: [F.adPost.notImage] });
  });

  it('refuses an ad larger than 5 MB with 413', async () => {
    const big = Buffer.concat([ONE_PIXEL_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const { headers, payload } = multipart(couponForm(), {
      adPost: { name: 'big.png', type: 'image/png', bytes: big },
    });

    const response = await submit(payload, headers);

    expect(response.statusCode).toBe(413);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM media WHERE size > 5242880',
    );
    expect(n).toBe(0);
  });
});

describe("a merchant's own coupons", () => {
  it('lists them as react-admin expects, with status and clicks, newest first', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    for (const title of ['First offer', 'Second offer', 'Third offer']) {
      await market.api.http.inject({
        method: 'POST',
        url: '/api/merchant/coupons',
        headers: session.bearer,
        payload: couponForm({ title }),
      });
    }

    const page = await market.api.http.inject({
      method: 'GET',
      url: `/api/merchant/coupons?sort=${encodeURIComponent('["id","DESC"]')}&range=${encodeURIComponent('[0,1]')}`,
      headers: session.bearer,
    });

    expect(page.headers['content-range']).toBe('coupons 0-1/3');
    expect(page.json().map((coupon: { title: string }) => coupon.title)).toEqual([
      'Third offer',
      'Second offer',
    ]);
    expect(page.json()[0]).toMatchObject({ status: 'pending', clicks: 0, rejectionReason: null });
  });

  it('edits a pending coupon, withdraws it, and then can edit it no more', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const created = await market.api.http.inject({
      method: 'POST',
      url: '/api/merchant/coupons',
      headers: session.bearer,
      payload: couponForm(),
    });
    const id = created.json().id;

    const edited = await market.api.http.inject({
      method: 'PUT',
      url: `/api/merchant/coupons/${id}`,
      headers: session.bearer,
      payload: { ...created.json(), title: 'Now 30% off', percentage: 30 },
    });
    const badEdit = await market.api.http.inject({
      method: 'PUT',
      url: `/api/merchant/coupons/${id}`,
      headers: session.bearer,
      payload: { percentage: 150 },
    });
    const withdrawn = await market.api.http.inject({
      method: 'DELETE',
      url: `/api/merchant/coupons/${id}`,
      headers: session.bearer,
    });
    const lateEdit = await market.api.http.inject({
      method: 'PUT',
      url: `/api/merchant/coupons/${id}`,
      headers: session.bearer,
      payload: { title: 'Too late' },
    });
    const withdrawnTwice = await market.api.http.inject({
      method: 'DELETE',
      url: `/api/merchant/coupons/${id}`,
      headers: session.bearer,
    });

    expect(edited.json()).toMatchObject({ title: 'Now 30% off', percentage: 30, status: 'pending' });
    expect(badEdit.json().errors).toEqual({ percentage: [F.percentage.invalid] });
    expect(withdrawn.json().status).toBe('withdrawn');
    expect(lateEdit.statusCode).toBe(409);
    expect(withdrawnTwice.statusCode).toBe(409);
  });
});
