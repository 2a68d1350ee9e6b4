import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  FeedError,
  type FeedRejection,
  type FeedRow,
  type ReadFeedOptions,
  readFeed,
} from '@offers/api/read-models';
import type { FeedCsvMapping, FeedFormat } from '@offers/api/rules';

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const fixtureStream = (name: string) => createReadStream(fixture(name));

/** Everything a feed reads as: its rows and its rejections, in order. */
export async function readAll(
  input: Readable | Buffer | string,
  format: FeedFormat,
  mapping?: FeedCsvMapping,
  options?: ReadFeedOptions,
): Promise<{ rows: FeedRow[]; rejections: FeedRejection[] }> {
  const stream = input instanceof Readable ? input : Readable.from([Buffer.from(input)]);
  const rows: FeedRow[] = [];
  const rejections: FeedRejection[] = [];
  for await (const entry of readFeed(stream, format, mapping, options)) {
    if ('reason' in entry) rejections.push(entry);
    else rows.push(entry);
  }
  return { rows, rejections };
}

/** The error a read ends with (a test fails when it ends without one). */
export async function readError(
  input: Readable | Buffer | string,
  format: FeedFormat,
  mapping?: FeedCsvMapping,
  options?: ReadFeedOptions,
): Promise<FeedError> {
  try {
    await readAll(input, format, mapping, options);
  } catch (error) {
    if (error instanceof FeedError) return error;
    throw error;
  }
  throw new Error('the feed was read without an error');
}

const STORES = ['Myntra', 'Flipkart', 'Ajio', 'Nykaa', 'Croma', 'BigBasket', 'Swiggy', 'Lenskart'];

/** One Admitad-shaped coupon, number `n` of a generated feed. */
export const admitadCoupon = (n: number) => ({
  id: 500000 + n,
  name: `Flat ${(n % 60) + 10}% off at ${STORES[n % STORES.length]}`,
  description: `Save on order number ${n}: <b>valid</b> on orders above &#8377;${499 + (n % 1000)}.`,
  promocode: n % 3 === 0 ? 'NOT REQUIRED' : `SAVE${n}`,
  discount: `${(n % 60) + 10}%`,
  species: n % 3 === 0 ? 'action' : 'promocode',
  exclusive: n % 7 === 0,
  date_start: '2026-01-01 00:00:00',
  date_end: n % 5 === 0 ? null : '2031-12-31 23:59:59',
  status: 'active',
  campaign: {
    id: 1000 + (n % STORES.length),
    name: STORES[n % STORES.length],
    site_url: 'https://www.example.in/',
  },
  categories: [{ id: 1, name: 'Fashion' }],
  goto_link: `https://ad.admitad.com/g/${n.toString(16)}/`,
  language: 'en',
  regions: ['IN'],
});

/**
 * A generated Admitad feed of `count` rows, made as it is read: `made()` tells how many rows the
 * source has produced so far, so a test can see rows arrive before the source has ended.
 */
export function generatedAdmitadFeed(count: number) {
  let made = 0;
  async function* text() {
    yield `{"_meta":{"count":${count}},"results":[`;
    for (let n = 1; n <= count; n += 1) {
      made = n;
      yield (n > 1 ? ',' : '') + JSON.stringify(admitadCoupon(n));
    }
    yield ']}';
  }
  return { stream: Readable.from(text(), { objectMode: false }), made: () => made };
}

/** The same for a LinkMyDeals CSV. */
export function generatedLinkMyDealsFeed(count: number) {
  let made = 0;
  async function* text() {
    yield 'lmd_id,store,merchant_homepage,title,description,code,terms_and_conditions,categories,url,smartlink,type,offer,offer_value,status,start_date,end_date\r\n';
    for (let n = 1; n <= count; n += 1) {
      made = n;
      const store = STORES[n % STORES.length];
      yield `${700000 + n},${store},https://www.example.in,"${(n % 60) + 10}% off, today only","Row ${n}, with a comma",CODE${n},,"Fashion,Sale",https://www.example.in/p/${n},https://linkmydeals.org/s/${n},Code,Percentage Off,${(n % 60) + 10},new,2026-01-01,2031-12-31\r\n`;
    }
  }
  return { stream: Readable.from(text(), { objectMode: false }), made: () => made };
}
