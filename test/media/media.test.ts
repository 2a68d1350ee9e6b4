import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IMAGE_TOO_WIDE } from '@offers/api/read-models';
import { COUPON_FORM } from '@offers/api/rules';
import sharp from 'sharp';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { couponForm, multipart } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let merchant: Session;

beforeAll(async () => {
  market = await startMarketplace('media');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
});

afterAll(async () => {
  await market?.close();
});

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

/** Uploads an ad image with a coupon; answers the response. */
async function upload(bytes: Buffer, name = 'ad.png', type = 'image/png') {
  const { headers, payload } = multipart(couponForm(), { adPost: { name, type, bytes } });
  return market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: { ...merchant.bearer, ...headers },
    payload,
  });
}

describe('uploads', () => {
  it.each([
    ['JPEG', () => picture(40, 30).jpeg().toBuffer()],
    ['PNG', () => picture(40, 30).png().toBuffer()],
    ['WebP', () => picture(40, 30).webp().toBuffer()],
    ['GIF', () => picture(40, 30).gif().toBuffer()],
    ['AVIF', () => picture(40, 30).avif().toBuffer()],
  ])('accept %s, told by its bytes', async (_format, make) => {
    const response = await upload(await make(), 'ad.bin', 'application/octet-stream');

    expect(response.statusCode).toBe(201);
  });

  it('refuse SVG and anything else that is not an image', async () => {
    const svg = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'ad.svg',
      'image/svg+xml',
    );
    const text = await upload(Buffer.from('GIF but not really'), 'ad.gif', 'image/gif');

    for (const response of [svg, text]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ adPost: [COUPON_FORM.adPost.notImage] });
    }
  });

  it('refuse an image wider than the bound, before decoding it', async () => {
    const response = await upload(await picture(9000, 10).png().toBuffer());

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ adPost: [IMAGE_TOO_WIDE] });
  });

  it('keep the same image once, however often it is uploaded', async () => {
    const bytes = await picture(41, 31).png().toBuffer();
    const first = await upload(bytes);
    const second = await upload(bytes);

    expect(first.json().imageUrl).toBe(second.json().imageUrl);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM media WHERE size = $1',
      [bytes.length],
    );
    expect(n).toBe(1);
  });
});

describe('resized copies', () => {
  it('are made once per width and format, as WebP when the browser takes it', async () => {
    const imageUrl = (await upload(await picture(800, 600).png().toBuffer())).json().imageUrl;
    const get = (query: string, headers: Record<string, string> = {}) =>
      market.api.http.inject({ method: 'GET', url: `${imageUrl}${query}`, headers });

    const webp = await get('?w=320', { accept: 'image/avif,image/webp,*/*' });
    const again = await get('?w=320', { accept: 'image/webp' });
    const png = await get('?w=320', { accept: 'image/png' });
    const unchanged = await get('?w=320', {
      accept: 'image/webp',
      'if-none-match': String(webp.headers.etag),
    });
    const oddWidth = await get('?w=321');

    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toContain('Accept');
    expect(png.headers['content-type']).toBe('image/png');
    expect(unchanged.statusCode).toBe(304);
    expect(oddWidth.statusCode).toBe(400);
    expect(again.headers.etag).toBe(webp.headers.etag);
    const fetched = await fetch(`${market.api.baseUrl}${imageUrl}?w=320`, {
      headers: { accept: 'image/webp' },
    });
    const size = await sharp(Buffer.from(await fetched.arrayBuffer())).metadata();
    expect(size).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM media_variants WHERE width = 320 AND content_type = 'image/webp'",
    );
    expect(n).toBe(1);
  });
});
