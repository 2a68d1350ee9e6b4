import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadinessReport } from '../health/readiness.js';

/** Seconds; from a ready answer (under a millisecond) to the request deadline. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];
/** Seconds from an event's commit to a consumer's effect: sub-second normally, minutes in trouble. */
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

/**
 * The Prometheus metrics of one process (the API or a workers process), in a registry of its own
 * (prom-client's global registry would be shared by every application a test file starts). Parts
 * of the product record into it; `/metrics` on the operations port reads it, and at each scrape
 * the readiness probe (one run of its checks) fills the gauges of the database, the outbox and the
 * queues.
 */
export class Metrics {
  readonly registry = new Registry();
  private readiness?: () => Promise<ReadinessReport>;

  readonly requestDuration = new Histogram({
    name: 'offers_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  readonly eventLag = new Histogram({
    name: 'offers_event_lag_seconds',
    help: "Time from an event's occurrence to a consumer having applied it (its transaction committed).",
    labelNames: ['consumer'] as const,
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });

  readonly eventsApplied = new Counter({
    name: 'offers_events_applied_total',
    help: 'Events a consumer applied (redeliveries its inbox skipped are not counted).',
    labelNames: ['consumer'] as const,
    registers: [this.registry],
  });

  readonly consumerFailures = new Counter({
    name: 'offers_event_consumer_failures_total',
    help: 'Attempts of a consumer that threw (the event is retried, or fails after its last attempt).',
    labelNames: ['consumer'] as const,
    registers: [this.registry],
  });

  readonly eventsFailed = new Counter({
    name: 'offers_events_failed_total',
    help: 'Events given up after their last attempt, by type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly feedRows = new Counter({
    name: 'offers_feed_rows_total',
    help: 'Rows of feed runs that succeeded, by source and outcome (added, updated, unchanged, ended, duplicate, rejected, waiting).',
    labelNames: ['source', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly feedRunDuration = new Histogram({
    name: 'offers_feed_run_duration_seconds',
    help: 'Time of a feed run in this process, by source and how it ended (succeeded, waiting, failed attempt).',
    labelNames: ['source', 'status'] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [this.registry],
  });

  readonly feedLastSuccess = new Gauge({
    name: 'offers_feed_last_success_timestamp_seconds',
    help: 'When a feed source last had a run succeed in this process (Unix time).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly mailsSent = new Counter({
    name: 'offers_mails_sent_total',
    help: 'Mails the SMTP server accepted.',
    registers: [this.registry],
  });

  readonly mailsFailed = new Counter({
    name: 'offers_mails_failed_total',
    help: 'Mail sending attempts the SMTP server refused or that failed; given_up when it was the last.',
    labelNames: ['given_up'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'offers_rate_limited_total',
    help: 'Requests refused with 429 by the per-address rate limits, by class of routes.',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });

  /** Lookups counted since the last scrape, by cache and outcome: a hit costs an addition. */
  private readonly cacheCounts = new Map<string, { hit: number; miss: number }>();

  readonly cacheRequests = new Counter({
    name: 'offers_cache_requests_total',
    help: 'Lookups of the ready-answer caches: hit (answered from memory) or miss (built).',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
    collect: () => this.flushCacheCounts(),
  });

  private readonly ready = this.gauge(
    'offers_ready',
    'Whether the process reports itself ready (1) or not (0).',
  );
  private readonly databaseUp = this.gauge('offers_database_up', 'Whether the database answered the probe.');
  private readonly databaseLatency = this.gauge(
    'offers_database_latency_seconds',
    'Round trip of the probe through its own connection.',
  );
  private readonly lockWaiting = this.gauge(
    'offers_database_lock_waits',
    'Statements of this database waiting for a lock.',
  );
  private readonly lockLongest = this.gauge(
    'offers_database_lock_wait_longest_seconds',
    'The longest wait of a statement of this database for a lock.',
  );
  private readonly pool = this.gauge(
    'offers_database_pool_connections',
    "This process's pool connections: open, idle, and callers waiting for one.",
    ['pool', 'state'],
  );
  private readonly redisUp = this.gauge('offers_redis_up', 'Whether Redis answered the probe.');
  private readonly outboxEvents = this.gauge(
    'offers_outbox_events',
    'Events not yet published, published but not applied by every consumer, and failed.',
    ['state'],
  );
  private readonly outboxOldest = this.gauge(
    'offers_outbox_oldest_seconds',
    'Age of the oldest unpublished event, and time since the oldest unprocessed one was published.',
    ['state'],
  );
  private readonly queueJobs = this.gauge('offers_queue_jobs', 'Jobs of each queue by state.', [
    'queue',
    'state',
  ]);

  constructor(
    /** Labels every series: `api` or `workers`. */
    readonly process: string,
  ) {
    this.registry.setDefaultLabels({ process });
    collectDefaultMetrics({ register: this.registry, prefix: 'offers_' });
  }

  /** Counts the hits and misses of a ready-answer cache. */
  cacheObserver(cache: string): (outcome: 'hit' | 'miss') => void {
    const counts = { hit: 0, miss: 0 };
    this.cacheCounts.set(cache, counts);
    // Added to the counter when scraped: the hot path does not pay for label hashing per lookup.
    return (outcome) => {
      counts[outcome] += 1;
    };
  }

  private flushCacheCounts(): void {
    for (const [cache, counts] of this.cacheCounts) {
      for (const result of ['hit', 'miss'] as const) {
        if (counts[result] === 0) continue;
        this.cacheRequests.inc({ cache, result }, counts[result]);
        counts[result] = 0;
      }
    }
  }

  /** Where a scrape gets the gauges of the readiness checks (one run of the probe per scrape). */
  readinessFrom(check: () => Promise<ReadinessReport>): void {
    this.readiness = check;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async metrics(): Promise<string> {
    if (this.readiness) this.record(await this.readiness());
    return this.registry.metrics();
  }

  private gauge(name: string, help: string, labelNames: string[] = []) {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  private record({ status, checks }: ReadinessReport): void {
    this.ready.set(status === 'ready' ? 1 : 0);
    this.databaseUp.set(checks.database.up ? 1 : 0);
    if (checks.database.up) this.databaseLatency.set(checks.database.latencyMs / 1000);
    if (!('error' in checks.locks)) {
      this.lockWaiting.set(checks.locks.waiting);
      this.lockLongest.set(checks.locks.longestWaitMs / 1000);
    }
    this.pool.reset();
    for (const [name, pool] of Object.entries(checks.pools)) {
      for (const state of ['open', 'idle', 'waiting'] as const)
        this.pool.set({ pool: name, state }, pool[state]);
      this.pool.set({ pool: name, state: 'max' }, pool.max);
    }
    this.redisUp.set(checks.redis.up ? 1 : 0);
    if (!('error' in checks.outbox)) {
      const outbox = checks.outbox;
      this.outboxEvents.set({ state: 'unpublished' }, outbox.unpublished);
      this.outboxEvents.set({ state: 'unprocessed' }, outbox.unprocessed);
      this.outboxEvents.set({ state: 'failed' }, outbox.failed);
      this.outboxOldest.set({ state: 'unpublished' }, outbox.oldestUnpublishedSeconds);
      this.outboxOldest.set({ state: 'unprocessed' }, outbox.oldestUnprocessedSeconds);
    }
    if (!('error' in checks.queues)) {
      this.queueJobs.reset();
      for (const [queue, counts] of Object.entries(checks.queues as Record<string, Record<string, number>>)) {
        for (const [state, count] of Object.entries(counts)) this.queueJobs.set({ queue, state }, count);
      }
    }
  }
}
