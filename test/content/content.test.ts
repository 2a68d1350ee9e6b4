import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildHomeContent } from '@offers/api/content/queries/home-content';
import { demoContentSeed } from '@offers/api/demo/content';
import {
  CONTENT_DEFAULTS,
  CONTENT_LIMITS as L,
  CONTENT_MESSAGES as M,
  textIn,
} from '@offers/api/rules/content';
import { textTooLong } from '@offers/api/rules/forms';
import { IMAGE_RULES } from '@offers/api/rules/media';
import type { PoolClient } from 'pg';
import sharp from 'sharp';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { HomeContentProjection } from '../../workers/src/consumers/home-content.projection.js';
import { rebuildProjection } from '../../workers/src/events/projection-rebuild.js';
import { multipart } from '../support/coupons.js';
import {
  approve,
  type Marketplace,
  merchantWithCoupon,
  startMarketplace,
  submitCoupon,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;
let picture: Buffer;

beforeAll(async () => {
  market = await startMarketplace('content');
  picture = await sharp({ create: { width: 64, height: 32, channels: 3, background: 'teal' } })
    .png()
    .toBuffer();
});

afterAll(async () => {
  await market?.close();
});

type Files = Parameters<typeof multipart>[1];

/** An admin request: JSON, or multipart when files are given. */
function admin(method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, fields?: object, files?: Files) {
  const form = files ? multipart(fields as Record<string, unknown>, files) : undefined;
  return market.api.http.inject({
    method,
    url,
    headers: { ...market.admin, ...form?.headers },
    payload: form ? form.payload : fields,
  });
}

const png = (bytes = picture, name = 'hero.png') => ({ name, type: 'image/png', bytes });

/** The texts every new picture needs: its title and alt text in English. */
const TEXTS = { title: 'Festive glow', altText: 'Serum bottles among diyas' };

async function count(table: string): Promise<number> {
  const [{ n }] = await market.api.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`);
  return n;
}

const home = async () => (await market.api.http.inject({ method: 'GET', url: '/api/home' })).json();

describe('hero images', () => {
  it('take the image as a file, a data URL or bare base64, and store it once', async () => {
    const mediaBefore = await count('media');
    const file = await admin(
      'POST',
      '/api/admin/heroes',
      { MerchantURL: 'www.glow.in/diwali', Title: TEXTS.title, AltText: TEXTS.altText },
      { Image: png() },
    );
    const dataUrl = await admin('POST', '/api/admin/heroes', {
      image: `data:image/png;base64,${picture.toString('base64')}`,
      merchantUrl: 'https://glow.in/a',
      ...TEXTS,
    });
    const bare = await admin('POST', '/api/admin/heroes', {
      image: picture.toString('base64'),
      merchantUrl: 'glow.in/b',
      ...TEXTS,
    });

    expect([file.statusCode, dataUrl.statusCode, bare.statusCode]).toEqual([201, 201, 201]);
    expect(file.json()).toMatchObject({
      merchantUrl: 'https://www.glow.in/diwali',
      isActive: true,
      sortOrder: 0,
    });
    expect(dataUrl.json().imageUrl).toBe(file.json().imageUrl);
    expect(bare.json().imageUrl).toBe(file.json().imageUrl);
    expect(bare.json().merchantUrl).toBe('https://glow.in/b');
    expect(await count('media')).toBe(mediaBefore + 1);
    const image = await market.api.http.inject({ method: 'GET', url: file.json().imageUrl });
    expect(image.headers['content-type']).toBe('image/png');
    const [stored] = await market.api.dataSource.query('SELECT bytes FROM media WHERE id = $1', [
      file.json().imageUrl.split('/').pop(),
    ]);
    expect(stored.bytes.equals(picture)).toBe(true);
  });

  it.each([
    [
      'a text file named .jpg',
      { Image: { name: 'hero.jpg', type: 'image/jpeg', bytes: Buffer.from('not a picture') } },
    ],
    [
      'an SVG with a script',
      {
        Image: {
          name: 'hero.svg',
          type: 'image/svg+xml',
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        },
      },
    ],
  ])('refuse %s and store nothing', async (_case, files) => {
    const [heroes, media] = [await count('hero_images'), await count('media')];

    const response = await admin(
      'POST',
      '/api/admin/heroes',
      { MerchantURL: 'https://glow.in', ...TEXTS },
      files,
    );

    expect(response.statusCode).toBe(400);
    expect(response.json().errors.image).toEqual([IMAGE_RULES.notImage]);
    expect([await count('hero_images'), await count('media')]).toEqual([heroes, media]);
  });

  it.each([
    'http://127.0.0.1/hero.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hero.png',
    'http://localhost/hero.png',
  ])('never fetch an image from %s', async (url) => {
    const [heroes, media] = [await count('hero_images'), await count('media')];

    const response = await admin('POST', '/api/admin/heroes', {
      image: url,
      merchantUrl: 'https://glow.in',
      ...TEXTS,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors.image).toBeDefined();
    expect([await count('hero_images'), await count('media')]).toEqual([heroes, media]);
  });

  it('need an image, a merchant URL, a title and an alt text, and say what is missing', async () => {
    const response = await admin('POST', '/api/admin/heroes', {});

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      message: M.heroFailed,
      errors: {
        image: [M.imageRequired],
        merchantUrl: [M.merchantUrlRequired],
        title: [M.titleRequired],
        altText: [M.altTextRequired],
      },
    });
  });

  it('show on the home page within 2 s of an upload, and leave it within 2 s of deactivation', async () => {
    const other = await sharp({ create: { width: 90, height: 30, channels: 3, background: 'orange' } })
      .png()
      .toBuffer();
    const created = await admin(
      'POST',
      '/api/admin/heroes',
      { merchantUrl: 'https://glow.in/new', sortOrder: '5', ...TEXTS },
      { image: png(other) },
    );
    const { id } = created.json();

    const shownAt = Date.now();
    await eventually(
      async () => (await home()).heroes.some((hero: { id: number }) => hero.id === id),
      'the new hero on the home page',
      2_000,
    );
    expect(Date.now() - shownAt).toBeLessThan(2_000);

    const changed = await admin('PUT', `/api/admin/heroes/${id}`, { isActive: false });
    expect(changed.json()).toMatchObject({
      id,
      isActive: false,
      merchantUrl: 'https://glow.in/new',
      sortOrder: 5,
    });
    await eventually(
      async () => !(await home()).heroes.some((hero: { id: number }) => hero.id === id),
      'the deactivated hero gone from the home page',
      2_000,
    );
    const heroes = (await market.api.http.inject({ method: 'GET', url: '/api/heroes' })).json();
    expect(heroes.map((hero: { id: number }) => hero.id)).not.toContain(id);
  });

  it('list for the back-office in pages with Content-Range', async () => {
    const response = await admin('GET', '/api/admin/heroes?range=[0,1]&sort=["id","DESC"]');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(2);
    expect(response.headers['content-range']).toMatch(/^heroes 0-1\/\d+$/);
    expect(response.json()[0]).not.toHaveProperty('imageId');
    expect((await admin('GET', '/api/admin/heroes?filter={"isActive":"maybe"}')).statusCode).toBe(400);
  });
});

describe('banners', () => {
  it('take the older client form (Data, Id, postion, MerchantURL) and show by position', async () => {
    const response = await admin(
      'POST',
      '/api/admin/banners',
      { Id: '7', postion: 'left', MerchantURL: 'shop.example.in', ...TEXTS },
      { Data: png() },
    );

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ position: 'left', merchantUrl: 'https://shop.example.in' });
    const { id } = response.json();
    await eventually(async () => {
      const left = (
        await market.api.http.inject({ method: 'GET', url: '/api/banners?position=left' })
      ).json();
      return left.some((banner: { id: number }) => banner.id === id);
    }, 'the banner at its position');
    const legacy = await market.api.http.inject({ method: 'GET', url: '/api/banners?postion=left' });
    expect(legacy.json().map((banner: { id: number }) => banner.id)).toContain(id);
    const right = await market.api.http.inject({ method: 'GET', url: '/api/banners?position=right' });
    expect(right.json().map((banner: { id: number }) => banner.id)).not.toContain(id);
  });

  it('refuse an unknown position and a missing image', async () => {
    const position = await admin(
      'POST',
      '/api/admin/banners',
      { position: 'top', merchantUrl: 'https://a.in', ...TEXTS },
      {
        image: png(),
      },
    );
    const image = await admin('POST', '/api/admin/banners', {
      position: 'cat',
      merchantUrl: 'https://a.in',
      ...TEXTS,
    });
    const query = await market.api.http.inject({ method: 'GET', url: '/api/banners?position=top' });

    expect(position.statusCode).toBe(400);
    expect(position.json().errors).toEqual({ position: [M.positionInvalid] });
    expect(image.json()).toMatchObject({ message: M.imageRequired, errors: { image: [M.imageRequired] } });
    expect(query.statusCode).toBe(400);
  });
});

describe('seasonal offers', () => {
  it("refuse a form with anything missing: 'All fields are required!'", async () => {
    const noImage = await admin('POST', '/api/admin/seasonal-offers', {
      Id: '1',
      MerchantURL: 'https://a.in',
      ...TEXTS,
    });
    const noUrl = await admin('POST', '/api/admin/seasonal-offers', { Id: '1', ...TEXTS }, { Data: png() });
    const noSlot = await admin(
      'POST',
      '/api/admin/seasonal-offers',
      { MerchantURL: 'https://a.in', ...TEXTS },
      { Data: png() },
    );
    const badSlot = await admin(
      'POST',
      '/api/admin/seasonal-offers',
      { Id: '5', MerchantURL: 'https://a.in', ...TEXTS },
      {
        Data: png(),
      },
    );
    const noTitle = await admin(
      'POST',
      '/api/admin/seasonal-offers',
      { Id: '1', MerchantURL: 'https://a.in', altText: TEXTS.altText },
      { Data: png() },
    );

    for (const response of [noImage, noUrl, noSlot, badSlot, noTitle]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(M.seasonalAllRequired);
    }
    expect(badSlot.json().errors).toEqual({ slot: [M.seasonalSlot] });
    expect(noTitle.json().errors).toEqual({ title: [M.titleRequired] });
    expect(await count('seasonal_offers')).toBe(0);
  });

  it('fill the four slots, change one and empty one', async () => {
    for (const slot of [1, 2, 3, 4]) {
      const saved = await admin(
        'POST',
        '/api/admin/seasonal-offers',
        { Id: String(slot), MerchantURL: `s${slot}.in`, ...TEXTS },
        {
          Data: png(),
        },
      );
      expect(saved.statusCode).toBe(201);
    }
    const changed = await admin('PUT', '/api/admin/seasonal-offers/2', { merchantUrl: 'https://winter.in' });
    expect(changed.json()).toMatchObject({ id: 2, slot: 2, merchantUrl: 'https://winter.in' });
    await admin('DELETE', '/api/admin/seasonal-offers/4');

    const list = await admin('GET', '/api/admin/seasonal-offers');
    expect(list.headers['content-range']).toBe('seasonal-offers 0-3/4');
    expect(list.json().map((offer: { imageUrl: string | null }) => Boolean(offer.imageUrl))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    await eventually(async () => {
      const offers = (await home()).seasonalOffers;
      return offers.length === 3 && offers[1].merchantUrl === 'https://winter.in';
    }, 'three seasonal offers on the home page');
    const emptyFill = await admin('PUT', '/api/admin/seasonal-offers/4', { merchantUrl: 'https://a.in' });
    expect(emptyFill.json().message).toBe(M.seasonalAllRequired);
    expect((await admin('GET', '/api/admin/seasonal-offers/9')).statusCode).toBe(404);
  });
});

describe('flash text', () => {
  it('defaults to the spec text, content type text and position toFlash', async () => {
    const response = await admin('POST', '/api/admin/flash-texts', {});

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      text: CONTENT_DEFAULTS.flashText,
      contentType: 'text',
      position: 'toFlash',
      isActive: true,
      imageUrl: null,
    });
  });

  it('takes the older client fields but never its stray content type', async () => {
    const stray = await admin('POST', '/api/admin/flash-texts', {
      flash_Text: 'Diwali sale',
      contentType: 'Devil',
      position: 'toFlash',
      isActive: true,
      merchantURL: 'glow.in/sale',
      imageData: 'null',
    });
    const saved = await admin('POST', '/api/admin/flash-texts', {
      flash_Text: 'Diwali sale: 40% off',
      contentType: 'text',
      position: 'toFlash',
      isActive: 'true',
      merchantURL: 'glow.in/sale',
      imageData: 'null',
    });
    const imageWithout = await admin('POST', '/api/admin/flash-texts', { contentType: 'image' });

    expect(stray.statusCode).toBe(400);
    expect(stray.json().errors).toEqual({ contentType: [M.flashContentType] });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ text: 'Diwali sale: 40% off', merchantUrl: 'https://glow.in/sale' });
    expect(imageWithout.json().errors).toEqual({ image: [M.flashImageRequired] });
    await eventually(async () => {
      const shown = (
        await market.api.http.inject({ method: 'GET', url: '/api/flash-text?position=toFlash' })
      ).json();
      return shown?.text === 'Diwali sale: 40% off';
    }, 'the newest flash text shown');
    expect((await home()).flashText.text).toBe('Diwali sale: 40% off');
  });

  it('answers null for a position without one', async () => {
    const response = await market.api.http.inject({ method: 'GET', url: '/api/flash-text?position=footer' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toBeNull();
  });
});

describe('best-offer banner', () => {
  it('asks for a file first, then defaults its name, type and frame to Bo', async () => {
    const missing = await admin('POST', '/api/admin/best-offer-banners', {
      MerchantURL: 'https://glow.in/best',
    });
    const saved = await admin(
      'POST',
      '/api/admin/best-offer-banners',
      {
        FileName: 'best.png',
        ContentType: 'image/png',
        MerchantURL: 'glow.in/best',
        UploadDate: '2026-01-01',
      },
      { ImageBytes: png() },
    );

    expect(missing.json()).toMatchObject({ message: M.bestOfferImageRequired });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({
      name: 'Bo',
      type: 'Bo',
      frame: 'Bo',
      merchantUrl: 'https://glow.in/best',
    });
    await eventually(
      async () => (await home()).bestOfferBanner?.imageUrl === saved.json().imageUrl,
      'the best-offer banner on the home page',
    );
  });
});

describe('texts in English, Hindi and Telugu', () => {
  const HERO = {
    title: 'Monsoon sale: rainwear from ₹299',
    titleHi: 'मानसून सेल: ₹299 से रेनवियर',
    titleTe: 'వర్షాకాలం సేల్: ₹299 నుంచి రెయిన్‌వేర్',
    altText: 'Umbrellas and raincoats in bright colours',
    altTextHi: 'चमकीले रंगों में छाते और रेनकोट',
    altTextTe: 'ముదురు రంగుల గొడుగులు, రెయిన్‌కోట్లు',
  };

  it('are stored and answered to the site in one document, from a form or JSON', async () => {
    const hero = await admin(
      'POST',
      '/api/admin/heroes',
      { merchantUrl: 'https://rain.example.in', ...HERO },
      {
        image: png(),
      },
    );
    // English only: the site shows it in every language.
    const banner = await admin('POST', '/api/admin/banners', {
      position: 'left',
      merchantUrl: 'https://rain.example.in/left',
      title: 'Raincoats for kids',
      altText: 'A child in a yellow raincoat',
      image: picture.toString('base64'),
    });
    const seasonal = await admin('POST', '/api/admin/seasonal-offers', {
      Id: '3',
      MerchantURL: 'https://rain.example.in/season',
      ...HERO,
      image: picture.toString('base64'),
    });
    const flash = await admin('POST', '/api/admin/flash-texts', {
      text: 'Monsoon sale: 40% off',
      textHi: 'मानसून सेल: 40% की छूट',
      textTe: 'వర్షాకాలం సేల్: 40% తగ్గింపు',
    });
    const best = await admin('POST', '/api/admin/best-offer-banners', {
      merchantUrl: 'https://rain.example.in/best',
      name: 'Best of the monsoon',
      nameHi: 'मानसून के सबसे अच्छे ऑफ़र',
      nameTe: 'వర్షాకాలపు ఉత్తమ ఆఫర్లు',
      image: picture.toString('base64'),
    });

    expect([hero, banner, seasonal, flash, best].map((response) => response.statusCode)).toEqual([
      201, 201, 201, 201, 201,
    ]);
    expect(hero.json()).toMatchObject(HERO);
    expect(banner.json()).toMatchObject({ title: 'Raincoats for kids', titleHi: null, titleTe: null });
    expect(seasonal.json()).toMatchObject(HERO);
    expect(flash.json()).toMatchObject({ textHi: 'मानसून सेल: 40% की छूट' });
    expect((await admin('GET', `/api/admin/heroes/${hero.json().id}`)).json()).toMatchObject(HERO);

    const page = await eventually(async () => {
      const body = await home();
      return body.flashText?.textTe === 'వర్షాకాలం సేల్: 40% తగ్గింపు' &&
        body.bestOfferBanner?.nameHi === 'मानसून के सबसे अच्छे ऑफ़र'
        ? body
        : undefined;
    }, 'the texts on the home page');
    const shownHero = page.heroes.find((item: { id: number }) => item.id === hero.json().id);
    expect(shownHero).toMatchObject(HERO);
    expect(page.seasonalOffers.find((offer: { slot: number }) => offer.slot === 3)).toMatchObject(HERO);
    expect(page.flashText).toMatchObject({ text: 'Monsoon sale: 40% off', textHi: 'मानसून सेल: 40% की छूट' });
    expect(textIn(shownHero, 'title', 'te')).toBe(HERO.titleTe);
    const shownBanner = page.banners.left.find((item: { id: number }) => item.id === banner.json().id);
    expect(textIn(shownBanner, 'title', 'hi')).toBe('Raincoats for kids');
    expect(textIn(shownBanner, 'altText', 'te')).toBe('A child in a yellow raincoat');
    // The position's own address and the flash text's carry them too.
    const left = (await market.api.http.inject({ method: 'GET', url: '/api/banners?position=left' })).json();
    expect(left.find((item: { id: number }) => item.id === banner.json().id)).toMatchObject({
      title: 'Raincoats for kids',
      altText: 'A child in a yellow raincoat',
    });
    const shownFlash = (await market.api.http.inject({ method: 'GET', url: '/api/flash-text' })).json();
    expect(shownFlash).toMatchObject({ textTe: 'వర్షాకాలం సేల్: 40% తగ్గింపు' });
  });

  it('refuse texts over their length with a message on each field, and store nothing', async () => {
    const before = await count('hero_images');
    const long = (length: number) => 'अ'.repeat(length + 1);

    const hero = await admin('POST', '/api/admin/heroes', {
      merchantUrl: 'https://rain.example.in',
      image: picture.toString('base64'),
      title: 'x'.repeat(L.titleMaxLength + 1),
      titleHi: long(L.titleMaxLength),
      altText: TEXTS.altText,
      altTextTe: long(L.altTextMaxLength),
    });
    const flash = await admin('POST', '/api/admin/flash-texts', { textHi: long(L.flashTextMaxLength) });
    const best = await admin('POST', '/api/admin/best-offer-banners', {
      merchantUrl: 'https://rain.example.in/best',
      nameTe: long(L.nameMaxLength),
      image: picture.toString('base64'),
    });
    const notText = await admin('POST', '/api/admin/flash-texts', { textTe: 42 });

    expect(hero.statusCode).toBe(400);
    expect(hero.json().errors).toEqual({
      title: [textTooLong(L.titleMaxLength)],
      titleHi: [textTooLong(L.titleMaxLength)],
      altTextTe: [textTooLong(L.altTextMaxLength)],
    });
    expect(flash.statusCode).toBe(400);
    expect(flash.json().errors).toEqual({ textHi: [textTooLong(L.flashTextMaxLength)] });
    expect(best.statusCode).toBe(400);
    expect(best.json().errors).toEqual({ nameTe: [textTooLong(L.nameMaxLength)] });
    expect(notText.statusCode).toBe(400);
    expect(notText.json().errors.textTe).toContain(M.textInvalid);
    expect(await count('hero_images')).toBe(before);
  });

  it('keep English: it cannot be emptied, a translation needs it, and an emptied translation is cleared', async () => {
    const created = await admin('POST', '/api/admin/heroes', {
      merchantUrl: 'https://rain.example.in',
      image: picture.toString('base64'),
      ...HERO,
    });
    const { id } = created.json();
    // A picture added before pictures had texts.
    const [{ id: older }] = await market.api.dataSource.query(
      `INSERT INTO hero_images (image_id, merchant_url) SELECT image_id, merchant_url FROM hero_images WHERE id = $1
       RETURNING id`,
      [id],
    );

    const emptied = await admin('PUT', `/api/admin/heroes/${id}`, { title: '  ' });
    const nulled = await admin('PUT', `/api/admin/heroes/${id}`, { altText: null });
    const alone = await admin('PUT', `/api/admin/heroes/${older}`, { titleHi: 'केवल हिन्दी' });
    const flashNull = await admin(
      'PUT',
      `/api/admin/flash-texts/${(await admin('POST', '/api/admin/flash-texts', {})).json().id}`,
      {
        text: null,
      },
    );
    const cleared = await admin('PUT', `/api/admin/heroes/${id}`, { titleHi: '', altTextTe: null });
    const switchedOff = await admin('PUT', `/api/admin/heroes/${older}`, { isActive: false });

    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().errors).toEqual({ title: [M.titleRequired] });
    expect(nulled.json().errors).toEqual({ altText: [M.altTextRequired] });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().errors).toEqual({ title: [M.englishFirst] });
    expect(flashNull.statusCode).toBe(400);
    expect(flashNull.json().errors).toEqual({ text: [M.flashTextRequired] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({
      title: HERO.title,
      titleHi: null,
      titleTe: HERO.titleTe,
      altTextTe: null,
    });
    expect(switchedOff.statusCode).toBe(200);
    expect(switchedOff.json()).toMatchObject({ title: null, isActive: false });
  });
});

describe('the home page', () => {
  it('answers everything in one response under 30 KB with full demo content', async () => {
    await demoContentSeed.run(market.api.dataSource, market.test.environment);
    const { merchant } = await merchantWithCoupon(market);
    const coupons = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        submitCoupon(market, merchant, {
          title: `Flat ${index + 10}% off on festive kits`,
          description: 'Valid on the whole festive range, online and in stores across India.',
        }),
      ),
    );
    for (const couponId of coupons) expect((await approve(market, couponId)).statusCode).toBe(200);

    const page = await eventually(async () => {
      const response = await market.api.http.inject({ method: 'GET', url: '/api/home' });
      const body = response.json();
      return body.topCoupons.length === 16 && body.heroes.length >= 3 ? response : undefined;
    }, 'demo content and 16 top coupons on the home page');

    const body = page.json();
    expect(Object.keys(body).sort()).toEqual(
      ['banners', 'bestOfferBanner', 'flashText', 'heroes', 'seasonalOffers', 'topCoupons'].sort(),
    );
    expect(Object.keys(body.banners).sort()).toEqual(['Bo', 'Tc', 'cat', 'left', 'right']);
    expect(body.heroes[0].imageUrl).toMatch(/^\/api\/media\//);
    expect(body.topCoupons[0]).not.toHaveProperty('couponCode');
    expect(Buffer.byteLength(page.body)).toBeLessThan(30 * 1024);
    expect(page.body).not.toMatch(/base64/);
  });

  it('is rebuilt from the event log to the same document', async () => {
    const [{ document: live }] = await market.api.dataSource.query('SELECT document FROM home_content');

    await market.api.dataSource.query(`UPDATE home_content SET document = '{}'`);
    await rebuildProjection(market.api.dataSource, new HomeContentProjection());

    const [{ document: rebuilt }] = await market.api.dataSource.query('SELECT document FROM home_content');
    expect(rebuilt).toEqual(live);
  });

  it("is built in a transaction one statement at a time, never stacked on its connection's busy one", async () => {
    const busyWhenAsked: boolean[] = [];
    const document = await market.api.dataSource.transaction(async (manager) => {
      const client = (await (manager.queryRunner as PostgresQueryRunner).connect()) as PoolClient & {
        activeQuery: unknown;
        queryQueue: unknown[];
      };
      const query = client.query;
      client.query = ((...args: Parameters<PoolClient['query']>) => {
        busyWhenAsked.push(Boolean(client.activeQuery) || client.queryQueue.length > 0);
        return (query as (...a: unknown[]) => unknown).apply(client, args);
      }) as PoolClient['query'];
      try {
        return await buildHomeContent(manager);
      } finally {
        client.query = query;
      }
    });

    expect(Object.keys(document.banners).sort()).toEqual(['Bo', 'Tc', 'cat', 'left', 'right']);
    expect(busyWhenAsked.length).toBeGreaterThanOrEqual(5);
    expect(busyWhenAsked).not.toContain(true);
  });
});

describe('the image size limit', () => {
  let small: Marketplace;

  beforeAll(async () => {
    small = await startMarketplace('content limit', { settings: { MEDIA_MAX_MB: '1' } });
  });

  afterAll(async () => {
    await small?.close();
  });

  it('follows the MEDIA_MAX_MB setting', async () => {
    const big = await sharp({
      create: {
        width: 1200,
        height: 1200,
        channels: 3,
        background: 'black',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const form = multipart({ merchantUrl: 'https://glow.in' }, { image: png(big, 'big.png') });

    const response = await small.api.http.inject({
      method: 'POST',
      url: '/api/admin/heroes',
      headers: { ...small.admin, ...form.headers },
      payload: form.payload,
    });

    expect(response.statusCode).toBe(413);
    const [{ n }] = await small.api.dataSource.query('SELECT count(*)::int AS n FROM media');
    expect(n).toBe(0);
  });
});
