/**
 * Search suggestions at size: `GET /api/search/suggest?q=` over 100,000 live coupons of 100
 * stores, as one types (beginnings, whole words, two words, typos), one request at a time, next
 * to `GET /api/categories` (a one-line query through the same API) in the same run.
 *
 *   npm run bench:search [-- --rounds N]
 *
 * Prints p50 and p95 of each and the ratio of the p95s; the target is p95 under 30 ms. Works in a
 * database of its own (the test environment's), removed at the end.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { seedStoreNamePagesInBulk } from '@offers/api/demo';
import { couponSuggestionsPlan } from '@offers/api/read-models';
import pg from 'pg';
import { startMarketplace } from '../test/support/marketplace.js';
import {
  MERCHANTS,
  seedCoupons,
  seedListings,
  seedMerchants,
  statements,
  vacuumAnalyze,
} from './listing/seed.js';

const LIVE_COUPONS = 100_000;
const TARGET_P95_MS = 30;
/** What a shopper types on the way to a search, typos included. */
const TYPED = [
  'sh',
  'sho',
  'shoe',
  'shoes',
  'phon',
  'elec',
  'electronics',
  'groc',
  'brand 4',
  'festiv',
  'cashbak',
  'weekend sale',
  'fitnes',
  'toy',
  'beauty deal',
];

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Math.max(1, Number(values.rounds) || 3);
const percentile = (numbers: number[], p: number) =>
  [...numbers].sort((a, b) => a - b)[Math.min(numbers.length - 1, Math.floor(numbers.length * p))]!;

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

const market = await startMarketplace('bench_search');
try {
  console.log(`Seeding ${LIVE_COUPONS.toLocaleString('en-US')} live coupons of ${MERCHANTS} stores...`);
  const client = new pg.Client({ connectionString: market.test.environment.DATABASE_URL });
  await client.connect();
  try {
    const merchants = await seedMerchants(client); // the demo slots are there already
    await seedCoupons(client, LIVE_COUPONS);
    await seedListings(client);
    await seedStoreNamePagesInBulk(
      statements(client),
      merchants.map((merchant) => ({
        merchantId: merchant.id,
        slug: merchant.slug,
        storeName: merchant.brandName,
      })),
    );
    await vacuumAnalyze(client, ['coupon_listings', 'store_pages']);
  } finally {
    await client.end();
  }

  const base = market.api.baseUrl;
  const suggest: number[] = [];
  const reference: number[] = [];
  for (const q of TYPED) await timed(`${base}/api/search/suggest?q=${encodeURIComponent(q)}`); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    for (const q of TYPED) {
      for (let i = 0; i < 10; i += 1) {
        suggest.push(await timed(`${base}/api/search/suggest?q=${encodeURIComponent(q)}`));
        reference.push(await timed(`${base}/api/categories`));
      }
    }
  }
  const slowest: Array<{ q: string; ms: number }> = [];
  for (const q of TYPED) {
    const times = [];
    for (let i = 0; i < 5; i += 1)
      times.push(await timed(`${base}/api/search/suggest?q=${encodeURIComponent(q)}`));
    slowest.push({ q, ms: percentile(times, 0.5) });
  }
  const p95 = percentile(suggest, 0.95);
  console.log(`\nOne request at a time, ${suggest.length} of each, ${TYPED.length} typed texts:`);
  console.log(
    `  GET /api/search/suggest   p50 ${percentile(suggest, 0.5).toFixed(1)} ms   p95 ${p95.toFixed(1)} ms`,
  );
  console.log(
    `  GET /api/categories       p50 ${percentile(reference, 0.5).toFixed(1)} ms   p95 ${percentile(reference, 0.95).toFixed(1)} ms`,
  );
  console.log(
    `  ratio of p95s             ${(p95 / percentile(reference, 0.95)).toFixed(1)}x the one-line query`,
  );
  console.log(
    `  target                    p95 < ${TARGET_P95_MS} ms: ${p95 < TARGET_P95_MS ? 'met' : 'NOT met'}`,
  );
  console.log(
    '  slowest texts (median):  ',
    [...slowest]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 4)
      .map((s) => `"${s.q}" ${s.ms.toFixed(1)} ms`)
      .join(', '),
  );
  // Where the slowest text's time goes: the plan of its coupon query.
  const worst = [...slowest].sort((a, b) => b.ms - a.ms)[0]!;
  const plan = await couponSuggestionsPlan(market.api.dataSource, worst.q);
  console.log(`\nPlan of the coupon suggestions for "${worst.q}":`);
  for (const line of plan) console.log(`  ${line}`);
} finally {
  await market.close();
}
