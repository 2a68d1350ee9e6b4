import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FORBIDDEN_ADDRESS, fetchImage, UNREACHABLE_IMAGE } from '@offers/api/read-models';
import sharp from 'sharp';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { couponForm } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let merchant: Session;
let server: Server;
let port: number;
let png: Buffer;

beforeAll(async () => {
  market = await startMarketplace('image sources');
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  png = await sharp({ create: { width: 20, height: 10, channels: 3, background: 'navy' } })
    .png()
    .toBuffer();
  // A stand-in for a merchant's web server, on this machine.
  server = createServer((request, response) => {
    if (request.url === '/ad.png') return response.end(png);
    if (request.url === '/inward')
      return response.writeHead(302, { location: `http://127.0.0.2:${port}/ad.png` }).end();
    if (request.url === '/big') return response.end(Buffer.alloc(2048));
    response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.close();
  await market?.close();
});

const submit = (adPost: unknown) =>
  market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: merchant.bearer,
    payload: couponForm({ adPost }),
  });

describe('an ad image sent as text, as older clients do', () => {
  it('is accepted as a data URL or bare base64, and checked by its bytes', async () => {
    const dataUrl = await submit(`data:image/png;base64,${png.toString('base64')}`);
    const bare = await submit(png.toString('base64'));
    const notAnImage = await submit(Buffer.from('hello').toString('base64'));

    expect(dataUrl.statusCode).toBe(201);
    expect(dataUrl.json().imageUrl).toMatch(/^\/api\/media\//);
    expect(bare.json().imageUrl).toBe(dataUrl.json().imageUrl);
    expect(notAnImage.statusCode).toBe(400);
  });

  it('is never fetched from this machine or a private network, by address or by name', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/ad.png`,
      `http://localhost:${port}/ad.png`,
      'http://10.1.2.3/ad.png',
      'http://[::1]/ad.png',
    ]) {
      const response = await submit(url);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ adPost: [FORBIDDEN_ADDRESS] });
    }
  });
});

describe('fetching an image', () => {
  // Here only 127.0.0.2 stands for the forbidden inside, so the local server can play the outside.
  const insideIs = (address: string) => address === '127.0.0.2';

  it('fetches from an allowed address', async () => {
    const bytes = await fetchImage(`http://127.0.0.1:${port}/ad.png`, 'image', { isForbidden: insideIs });

    expect(bytes.equals(png)).toBe(true);
  });

  it('checks every redirect again', async () => {
    await expect(
      fetchImage(`http://127.0.0.1:${port}/inward`, 'image', { isForbidden: insideIs }),
    ).rejects.toMatchObject({
      response: { message: FORBIDDEN_ADDRESS },
    });
  });

  it('stops at the size limit and reports what cannot be fetched', async () => {
    await expect(
      fetchImage(`http://127.0.0.1:${port}/big`, 'image', { isForbidden: insideIs, maxBytes: 1024 }),
    ).rejects.toMatchObject({
      status: 413,
    });
    await expect(
      fetchImage(`http://127.0.0.1:${port}/missing`, 'image', { isForbidden: insideIs }),
    ).rejects.toMatchObject({
      response: { message: UNREACHABLE_IMAGE },
    });
  });
});
