import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  FORBIDDEN_ADDRESS,
  fetchImage,
  IMAGE_TOO_MANY_PIXELS,
  isPrivateAddress,
  resizeCount,
  UNREACHABLE_IMAGE,
} from '@offers/api/read-models';
import sharp from 'sharp';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { couponForm } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

/** Fetching images by URL and storing and resizing them cannot be turned against the server. */
let market: Marketplace;
let merchant: Session;
let server: Server;
let port: number;

beforeAll(async () => {
  market = await startMarketplace('image abuse');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  // A server that sends headers at once, then one byte a second.
  server = createServer((request, response) => {
    if (request.url !== '/drip.png') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/png' });
    const drip = setInterval(() => response.write(Buffer.from([0x89])), 1000);
    response.on('close', () => clearInterval(drip));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await market?.close();
});

const submit = (adPost: string) =>
  market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: merchant.bearer,
    payload: couponForm({ adPost }),
  });

const asDataUrl = (bytes: Buffer, type = 'image/jpeg') => `data:${type};base64,${bytes.toString('base64')}`;

async function storedOriginal(imageUrl: string): Promise<Buffer> {
  const response = await fetch(`${market.api.baseUrl}${imageUrl}`);
  return Buffer.from(await response.arrayBuffer());
}

describe('fetching an image by URL', () => {
  it('ends at the 5 s deadline however slowly the bytes come', async () => {
    const started = Date.now();
    const attempt = fetchImage(`http://127.0.0.1:${port}/drip.png`, 'adPost', { isForbidden: () => false });

    await expect(attempt).rejects.toMatchObject({ response: { message: UNREACHABLE_IMAGE } });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect(took).toBeLessThan(6_500);
  }, 20_000);

  it.each([
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::808:808',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    '2001::1',
    '2001:db8::1',
    'fc00::1',
    'fe80::1%eth0',
    '::',
    '0.0.0.0',
    '100.64.0.1',
    '169.254.169.254',
    '192.0.2.10',
    '255.255.255.255',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it("refuses this host's own interface addresses, and allows the internet", () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry!.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(isPrivateAddress(address)).toBe(true);
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) {
      expect(isPrivateAddress(address)).toBe(false);
    }
  });

  it.each(['http://[::127.0.0.1]:1/a.png', 'http://[64:ff9b::7f00:1]/a.png', 'http://[2002:7f00:1::]/a.png'])(
    'refuses %s before connecting',
    async (url) => {
      const response = await submit(url);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ adPost: [FORBIDDEN_ADDRESS] });
    },
  );
});

describe('stored images', () => {
  it('keep no EXIF (GPS included) and have their orientation applied', async () => {
    // 40 × 20 pixels, to be shown turned a quarter (orientation 6), taken somewhere in Bengaluru.
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: 'teal' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneMaker' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '12/1 58/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '77/1 35/1 0/1',
        },
      })
      .toBuffer();
    expect(await sharp(photo).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer) });

    const response = await submit(asDataUrl(photo));
    expect(response.statusCode).toBe(201);
    const stored = await storedOriginal(response.json().imageUrl);
    const metadata = await sharp(stored).metadata();

    expect(metadata.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect([metadata.width, metadata.height]).toEqual([20, 40]);
    expect(metadata.orientation ?? 1).toBe(1);
  });

  it('are at most 40 megapixels: an 8000 × 8000 PNG of a few hundred KB is refused', async () => {
    const huge = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: 'white' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.length).toBeLessThan(1024 * 1024);

    const response = await submit(asDataUrl(huge, 'image/png'));

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ adPost: [IMAGE_TOO_MANY_PIXELS] });
  }, 30_000);

  it('are resized when stored, never when visitors ask, however many at once', async () => {
    const picture = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: 'orange' } })
      .jpeg()
      .toBuffer();
    const imageUrl = (await submit(asDataUrl(picture))).json().imageUrl as string;
    const before = resizeCount();

    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        market.api.http.inject({
          method: 'GET',
          url: `${imageUrl}?w=960`,
          headers: { accept: 'image/webp' },
        }),
      ),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(resizeCount() - before).toBe(0);
    const copy = await fetch(`${market.api.baseUrl}${imageUrl}?w=960`, { headers: { accept: 'image/webp' } });
    expect((await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).width).toBe(960);
  });
});
