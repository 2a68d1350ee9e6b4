/**
 * The public site's performance budget, measured in Chromium on the production build served
 * locally (compressed, as a host would) against the real API with demo content: the home page's
 * JavaScript gzipped (budget 90 KB), everything it transfers (400 KB) and its Largest Contentful
 * Paint (1.0 s), plus which chunks load, to show that other routes stay out of the home page.
 *
 *   npm run bench:web [-- --runs N]
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. Prints figures and
 * exits 0 whatever they are; non-zero only when the run itself fails.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { registerAndSignInMerchant } from '../../test/support/accounts.js';
import { couponForm, multipart } from '../../test/support/coupons.js';
import { approve, type Marketplace, startMarketplace } from '../../test/support/marketplace.js';
import { launchChromium, serveWebPublic, untilAllListed } from '../../test/support/web-public.js';

const BUDGET = { homeJsKb: 90, transferKb: 400, lcpMs: 1000 };
const DEMO_COUPONS = 16;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs) || 5);

/** A photo-like ad image (a gradient with grain), as merchants upload them. */
async function adImage(seed: number): Promise<Buffer> {
  const width = 1200;
  const height = 800;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    const x = i % width;
    const y = Math.floor(i / width);
    const noise = ((i * 2654435761 + seed * 97) >>> 0) % 12; // photo grain
    pixels[i * 3] = (x / width) * 200 + noise;
    pixels[i * 3 + 1] = (y / height) * 150 + noise;
    pixels[i * 3 + 2] = ((seed * 37) % 255) / 2 + noise;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function seedDemo(market: Marketplace) {
  const { session } = await registerAndSignInMerchant(market.api.baseUrl);
  for (let index = 0; index < DEMO_COUPONS; index += 1) {
    const { headers, payload } = multipart(
      couponForm({ title: `Demo offer ${index + 1}: ${10 + index}% off`, percentage: String(10 + index) }),
      { adPost: { name: `ad-${index}.jpg`, type: 'image/jpeg', bytes: await adImage(index) } },
    );
    const submitted = await market.api.http.inject({
      method: 'POST',
      url: '/api/merchant/coupons',
      headers: { ...session.bearer, ...headers },
      payload,
    });
    if (submitted.statusCode !== 201) throw new Error(`coupon not submitted: ${submitted.body}`);
    const id = submitted.json().id as number;
    await approve(market, id);
  }
  await untilAllListed(market, DEMO_COUPONS);
}

interface Measurement {
  jsGzipKb: number;
  transferKb: number;
  lcpMs: number;
  lcpElement: string;
  requests: number;
  scripts: string[];
  largest: string[];
}

async function measureHome(
  siteUrl: string,
  browser: Awaited<ReturnType<typeof launchChromium>>,
  home?: unknown,
): Promise<Measurement> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  // Until GET /api/home is served, its contract's answer is given to the browser as it will come.
  if (home) {
    await page.route('**/api/home', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(home) }),
    );
  }
  await page.addInitScript(`
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__lcp = entry.startTime;
        window.__lcpEntry = entry;
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  `);
  const responses: Array<Promise<{ url: string; type: string; transfer: number; gzip: number }>> = [];
  page.on('requestfinished', (request) => {
    responses.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const body = response ? await response.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
        return {
          url: request.url(),
          type: request.resourceType(),
          transfer: sizes.responseBodySize + sizes.responseHeadersSize,
          gzip: gzipSync(body).length,
        };
      })(),
    );
  });
  await page.goto(siteUrl, { waitUntil: 'networkidle' });
  // LCP is final once the page was interacted with or hidden; a short wait lets late images land.
  await page.waitForTimeout(500);
  const lcpMs = Number(await page.evaluate('window.__lcp'));
  const lcpElement = String(
    await page.evaluate(`(() => {
      const last = window.__lcpEntry;
      if (!last) return '?';
      if (last.url) return 'image ' + new URL(last.url).pathname.slice(0, 24) + '... ' + new URL(last.url).search;
      return last.element ? last.element.tagName.toLowerCase() : 'text';
    })()`),
  );
  const loaded = await Promise.all(responses);
  await context.close();
  const scripts = loaded.filter((r) => r.type === 'script');
  return {
    jsGzipKb: scripts.reduce((sum, r) => sum + r.gzip, 0) / 1024,
    transferKb: loaded.reduce((sum, r) => sum + r.transfer, 0) / 1024,
    lcpMs,
    lcpElement,
    requests: loaded.length,
    scripts: scripts.map((r) => new URL(r.url).pathname),
    largest: [...loaded]
      .sort((a, b) => b.transfer - a.transfer)
      .slice(0, 5)
      .map((r) => `${new URL(r.url).pathname}${new URL(r.url).search} ${(r.transfer / 1024).toFixed(1)} KB`),
  };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

const market = await startMarketplace('bench_web');
let site: Awaited<ReturnType<typeof serveWebPublic>> | undefined;
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
try {
  console.log(`Seeding ${DEMO_COUPONS} coupons with ad images...`);
  await seedDemo(market);
  site = await serveWebPublic(market.api.baseUrl);
  browser = await launchChromium();
  const top = (
    await market.api.http.inject({ method: 'GET', url: '/api/coupons?sort=top&perPage=16' })
  ).json();
  const scenarios: Array<[string, unknown]> = [
    ['top coupons only (GET /api/home not served yet: the fallback list)', undefined],
    [
      'full home content in the shape of GET /api/home (three heroes, banners, seasonal offers)',
      homeContent(top.data),
    ],
  ];
  for (const [name, home] of scenarios) {
    await measureHome(site.url, browser, home); // warm-up: the API's caches and resized images
    const measured: Measurement[] = [];
    for (let run = 0; run < runs; run += 1) measured.push(await measureHome(site.url, browser, home));
    report(name, measured);
  }
} finally {
  await browser?.close();
  await site?.close();
  await market.close();
}

// biome-ignore lint/suspicious/noExplicitAny: coupon cards as the API lists them
function homeContent(cards: any[]) {
  const image = (index: number) => cards[index % cards.length].imageUrl as string;
  const link = (name: string) => `https://${name}.example.in/`;
  return {
    heroes: [0, 1, 2].map((n) => ({
      id: n + 1,
      imageUrl: image(n),
      merchantUrl: link(`hero${n}`),
      sortOrder: n,
    })),
    banners: {
      cat: [],
      Tc: [],
      Bo: [],
      left: [{ id: 1, position: 'left', imageUrl: image(3), merchantUrl: link('left') }],
      right: [{ id: 2, position: 'right', imageUrl: image(4), merchantUrl: link('right') }],
    },
    topCoupons: cards,
    seasonalOffers: [1, 2, 3, 4].map((slot) => ({
      slot,
      imageUrl: image(slot + 4),
      merchantUrl: link(`s${slot}`),
    })),
    flashText: {
      text: 'Diwali sale',
      contentType: 'text',
      position: 'toFlash',
      merchantUrl: null,
      imageUrl: null,
    },
    bestOfferBanner: null,
  };
}

function report(name: string, measured: Measurement[]) {
  const js = median(measured.map((m) => m.jsGzipKb));
  const transfer = median(measured.map((m) => m.transferKb));
  const lcp = median(measured.map((m) => m.lcpMs));
  const verdict = (value: number, budget: number) => (value <= budget ? 'within budget' : 'OVER BUDGET');
  console.log(`\nHome page, ${name}; cold cache, median of ${runs} runs (Chromium, 1366x900, localhost):`);
  console.log(
    `  JavaScript, gzipped   ${js.toFixed(1)} KB   (budget ${BUDGET.homeJsKb} KB: ${verdict(js, BUDGET.homeJsKb)})`,
  );
  console.log(
    `  Total transfer        ${transfer.toFixed(1)} KB   (budget ${BUDGET.transferKb} KB: ${verdict(transfer, BUDGET.transferKb)})`,
  );
  console.log(
    `  LCP                   ${lcp.toFixed(0)} ms   (budget < ${BUDGET.lcpMs} ms: ${verdict(lcp, BUDGET.lcpMs - 1)})`,
  );
  console.log(`  LCP element           ${measured[0]!.lcpElement}`);
  console.log(`  Requests              ${measured[0]!.requests}`);
  console.log(`  Scripts loaded        ${measured[0]!.scripts.join(', ')}`);
  console.log(`  Largest transfers     ${measured[0]!.largest.join(', ')}`);
}
