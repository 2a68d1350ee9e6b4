/**
 * The sale-day load generator: an open model. Requests arrive at the offered rate whatever the
 * servers answer (exponential gaps between arrivals, as independent visitors arrive), each is sent
 * at once on a connection of a pool (undici), and its latency counts from the moment it was due,
 * not from when a connection was free: a server that falls behind shows it in the latency instead
 * of slowing the generator down (no coordinated omission). Arrivals that would pass a cap of
 * requests in flight are not sent and counted as `unsent`: the step failed to carry its rate.
 *
 * Every request is one of four classes (shoppers' pages, shoppers' API reads, shoppers' reveals,
 * click-outs and votes, bots), each with its own figures. Shoppers come from 2,000 addresses and
 * bots from 20, said with `X-Forwarded-For` as the trusted proxy in front of the site would.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';

export const CLASSES = ['pages', 'api', 'actions', 'bots'] as const;
export type RequestClass = (typeof CLASSES)[number];
export const SHOPPER_CLASSES: readonly RequestClass[] = ['pages', 'api', 'actions'];

/** Share of all requests of each class: shoppers 90 % (pages 70 %, API 20 %, actions 10 % of theirs), bots 10 %. */
export const SHARES: Record<RequestClass, number> = { pages: 0.63, api: 0.18, actions: 0.09, bots: 0.1 };
/** Shoppers' pages with tracking parameters (an ad's or a message's link). */
const TRACKED_SHARE = 0.2;
/** A bot's visit is a burst of this many suggestions (typing a word fast) this often. */
const BOT_BURST = 6;
const BOT_BURST_SHARE = 0.4;
/** Share of the actions that are click-outs, and of those that are double clicks (two at once). */
const CLICK_SHARE = 0.4;
const DOUBLE_CLICK_SHARE = 0.2;
/** Requests per arrival of each class, on average. */
const REQUESTS_PER_ARRIVAL: Record<RequestClass, number> = {
  pages: 1,
  api: 1,
  actions: 1 + CLICK_SHARE * DOUBLE_CLICK_SHARE,
  bots: 1 - BOT_BURST_SHARE + BOT_BURST_SHARE * BOT_BURST,
};

/** More than this in flight at once and new arrivals are counted as unsent. */
const MAX_IN_FLIGHT = 1024;
/** A request not answered within this is a timeout. */
export const TIMEOUT_MS = 2000;
const TICK_MS = 2;

export const SHOPPER_ADDRESSES = 2000;
export const BOT_ADDRESSES = 20;
/** RFC 2544's range for benchmarks: no real client has these, and none is loopback. */
const shopperAddress = (i: number) => `198.18.${i >> 8}.${i & 255}`;
const botAddress = (i: number) => `198.19.255.${i + 1}`;

/** What the shoppers and bots ask for, from the seeded marketplace. */
export interface Targets {
  /** The site's own origin, which unsafe requests name as their Origin. */
  origin: string;
  pages: string[];
  apiReads: string[];
  /** Texts typed into the search box, whole and as their beginnings. */
  searchTexts: string[];
  couponIds: number[];
}

export interface ClassFigures {
  sent: number;
  unsent: number;
  /** ms from when each answered request was due to its last byte. */
  latencies: number[];
  statuses: Map<number, number>;
  timeouts: number;
  errors: number;
}

export interface LoadResult {
  offeredPerSecond: number;
  seconds: number;
  classes: Record<RequestClass, ClassFigures>;
  /** Click-outs sent (answered or not, such as a timeout), as distinct (address, coupon) pairs. */
  clickPairsTried: Set<string>;
  /** Click-outs answered with a redirect: how many, and the distinct (address, coupon) pairs. */
  clickOuts: number;
  clickPairs: Set<string>;
  /** How late the generator sent requests after they were due (its own event loop), p99 in ms. */
  sendDelayP99Ms: number;
}

interface Planned {
  kind: RequestClass;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** (address, coupon) of a click-out. */
  clickPair?: string;
}

const BROWSER = {
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
  'accept-language': 'en-IN,en;q=0.9,hi;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
};
const BOT = { 'user-agent': 'Mozilla/5.0 (compatible; pricebot/2.1)', 'accept-encoding': 'gzip' };
const TRACKING_SOURCES = ['google', 'whatsapp', 'newsletter', 'instagram'];

const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** The mix of requests: one planned request (or a bot's burst) per arrival. */
export class Mix {
  constructor(private readonly targets: Targets) {}

  /** Requests per arrival on average: a bot's arrival may be a burst, a click-out a double click. */
  static requestsPerArrival(): number {
    return 1 / CLASSES.reduce((sum, kind) => sum + SHARES[kind] / REQUESTS_PER_ARRIVAL[kind], 0);
  }

  /** Arrivals are chosen so that each class's share of requests is SHARES. */
  next(): Planned[] {
    let draw = Math.random() / Mix.requestsPerArrival();
    let kind: RequestClass = 'pages';
    for (kind of CLASSES) {
      draw -= SHARES[kind] / REQUESTS_PER_ARRIVAL[kind];
      if (draw < 0) break;
    }
    if (kind === 'bots') return this.bot();
    const address = shopperAddress(1 + Math.floor(Math.random() * SHOPPER_ADDRESSES));
    if (kind === 'pages') return [this.page(address)];
    if (kind === 'api') return [this.apiRead(address)];
    return this.action(address);
  }

  private page(address: string): Planned {
    let path = pick(this.targets.pages);
    if (Math.random() < TRACKED_SHARE) {
      const source = pick(TRACKING_SOURCES);
      path += `?utm_source=${source}&utm_medium=${source === 'google' ? 'cpc' : 'social'}&utm_campaign=sale-day`;
      if (source === 'google') path += `&gclid=${token(24)}`;
    }
    return {
      kind: 'pages',
      method: 'GET',
      path,
      headers: { ...BROWSER, accept: 'text/html', 'x-forwarded-for': address },
    };
  }

  private apiRead(address: string): Planned {
    const path =
      Math.random() < 0.5
        ? pick(this.targets.apiReads)
        : `/api/search/suggest?q=${encodeURIComponent(pick(this.targets.searchTexts))}`;
    return {
      kind: 'api',
      method: 'GET',
      path,
      headers: { ...BROWSER, accept: 'application/json', 'x-forwarded-for': address },
    };
  }

  private action(address: string): Planned[] {
    const draw = Math.random();
    const couponId = pick(this.targets.couponIds);
    // Unsafe requests from the site's pages name the site as their origin (the cross-site guard).
    const headers = {
      ...BROWSER,
      accept: 'application/json',
      origin: this.targets.origin,
      'x-forwarded-for': address,
    };
    if (draw < CLICK_SHARE) {
      // A click-out is a navigation: no Origin, an HTML accept. A double click sends it twice.
      const click: Planned = {
        kind: 'actions',
        method: 'GET',
        path: `/api/out/${couponId}`,
        headers: { ...BROWSER, accept: 'text/html', 'x-forwarded-for': address },
        clickPair: `${address} ${couponId}`,
      };
      return Math.random() < DOUBLE_CLICK_SHARE ? [click, click] : [click];
    }
    if (draw < CLICK_SHARE + 0.4) {
      return [{ kind: 'actions', method: 'POST', path: `/api/coupons/${couponId}/reveal`, headers }];
    }
    return [
      {
        kind: 'actions',
        method: 'POST',
        path: `/api/coupons/${couponId}/votes`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ worked: Math.random() < 0.8 }),
      },
    ];
  }

  private bot(): Planned[] {
    const headers = { ...BOT, 'x-forwarded-for': botAddress(Math.floor(Math.random() * BOT_ADDRESSES)) };
    if (Math.random() < BOT_BURST_SHARE) {
      const word = token(6)
        .replace(/[^a-z]/gi, 'a')
        .toLowerCase();
      return Array.from({ length: BOT_BURST }, (_, i) => ({
        kind: 'bots' as const,
        method: 'GET' as const,
        path: `/api/search/suggest?q=${word.slice(0, 2 + i)}`,
        headers: { ...headers, accept: 'application/json' },
      }));
    }
    const path = Math.random() < 0.5 ? `/?x=${token(9)}` : `/coupons?utm_source=${token(9)}`;
    return [{ kind: 'bots', method: 'GET', path, headers: { ...headers, accept: 'text/html' } }];
  }
}

const emptyFigures = (): ClassFigures => ({
  sent: 0,
  unsent: 0,
  latencies: [],
  statuses: new Map(),
  timeouts: 0,
  errors: 0,
});

/** Connections to the site for the whole run: opened once, kept alive between steps. */
export function connectionPool(origin: string): Pool {
  return new Pool(origin, {
    connections: MAX_IN_FLIGHT,
    pipelining: 1,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    keepAliveTimeout: 30_000,
  });
}

const isTimeout = (error: unknown) =>
  /TIMEOUT/i.test(String((error as { code?: string }).code ?? '')) ||
  (error as Error).name === 'HeadersTimeoutError' ||
  (error as Error).name === 'BodyTimeoutError';

/**
 * Offers `perSecond` requests a second for `seconds`, then waits for the answers still due (at
 * most the timeout). Bounded: arrivals stop at the end, and at most MAX_IN_FLIGHT are in flight.
 */
export async function offer(pool: Pool, mix: Mix, perSecond: number, seconds: number): Promise<LoadResult> {
  const classes = Object.fromEntries(CLASSES.map((kind) => [kind, emptyFigures()])) as Record<
    RequestClass,
    ClassFigures
  >;
  const clickPairs = new Set<string>();
  const clickPairsTried = new Set<string>();
  let clickOuts = 0;
  const sendDelays: number[] = [];
  const arrivalsPerMs = perSecond / Mix.requestsPerArrival() / 1000;
  const start = performance.now();
  const end = start + seconds * 1000;
  const inFlight = new Set<Promise<void>>();

  const send = (planned: Planned, dueAt: number) => {
    const figures = classes[planned.kind];
    if (inFlight.size >= MAX_IN_FLIGHT) {
      figures.unsent += 1;
      return;
    }
    figures.sent += 1;
    if (planned.clickPair) clickPairsTried.add(planned.clickPair);
    sendDelays.push(performance.now() - dueAt);
    const request = (async () => {
      try {
        const response = await pool.request({
          method: planned.method,
          path: planned.path,
          headers: planned.body
            ? { ...planned.headers, 'content-length': String(Buffer.byteLength(planned.body)) }
            : planned.headers,
          body: planned.body,
        });
        await response.body.dump({ limit: 4 << 20 });
        const latency = performance.now() - dueAt;
        figures.latencies.push(latency);
        figures.statuses.set(response.statusCode, (figures.statuses.get(response.statusCode) ?? 0) + 1);
        if (planned.clickPair && response.statusCode === 302) {
          clickOuts += 1;
          clickPairs.add(planned.clickPair);
        }
      } catch (error) {
        if (isTimeout(error)) figures.timeouts += 1;
        else figures.errors += 1;
      }
    })();
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  };

  // Arrival times drawn ahead, dispatched on each tick once due.
  let nextArrival = start + -Math.log(1 - Math.random()) / arrivalsPerMs;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (nextArrival <= now && nextArrival < end) {
        for (const planned of mix.next()) send(planned, nextArrival);
        nextArrival += -Math.log(1 - Math.random()) / arrivalsPerMs;
      }
      if (now >= end) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  await Promise.all(inFlight);
  sendDelays.sort((a, b) => a - b);
  return {
    offeredPerSecond: perSecond,
    seconds,
    classes,
    clickOuts,
    clickPairs,
    clickPairsTried,
    sendDelayP99Ms: percentile(sendDelays, 99),
  };
}

/** The p-th percentile (nearest rank) of ascending or unsorted values; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Answers of a status family (5 for 5xx) or one status. */
export function countStatuses(figures: ClassFigures, match: (status: number) => boolean): number {
  let count = 0;
  for (const [status, n] of figures.statuses) if (match(status)) count += n;
  return count;
}
