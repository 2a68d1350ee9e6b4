import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Environment, OperationsServer, type ReadinessCheck, requestIdFor } from '@offers/api/site';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DestinationStream, Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Moved, ReadyDocument } from './documents.js';
import { AnswerLogController, readyAnswerLogger, siteLogger } from './logging.js';
import type { SsrEntry } from './ssr-entry.js';

/** Seconds a page takes to render from the read models: a few ms normally, seconds in trouble. */
const RENDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Who gave an answer: the page kept ready, sent before Fastify, or Fastify's routes. */
type AnsweredBy = 'ready' | 'server';

/**
 * The site server's Prometheus metrics, in a registry of its own labelled `process="web-public"`,
 * named as the API's where they mean the same (`offers_cache_requests_total`, `offers_ready`, the
 * process's default metrics). Counts of the hot path are plain additions, added to the counters
 * when scraped: a page kept ready pays no label hashing.
 */
export class SiteMetrics {
  readonly registry = new Registry();
  private readonly answerCounts: Record<AnsweredBy, Map<number, number>> = {
    ready: new Map(),
    server: new Map(),
  };
  private readonly cacheCounts = { hit: 0, miss: 0 };
  private readiness?: ReadinessCheck;

  readonly renderDuration = new Histogram({
    name: 'offers_site_page_render_duration_seconds',
    help: 'Time to render a page from the read models (a page not kept ready), by kind of page.',
    labelNames: ['page'] as const,
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });

  readonly answers = new Counter({
    name: 'offers_site_answers_total',
    help: 'Answers of the site server by status code, and whether a page kept ready was sent before routing (ready) or the server routed the request (server).',
    labelNames: ['status_code', 'answered_by'] as const,
    registers: [this.registry],
    collect: () => this.flushAnswers(),
  });

  readonly cacheRequests = new Counter({
    name: 'offers_cache_requests_total',
    help: 'Lookups of the ready-answer caches: hit (answered from memory) or miss (built).',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
    collect: () => this.flushCacheCounts(),
  });

  private readonly ready = new Gauge({
    name: 'offers_ready',
    help: 'Whether the process reports itself ready (1) or not (0).',
    registers: [this.registry],
  });

  constructor() {
    this.registry.setDefaultLabels({ process: 'web-public' });
    collectDefaultMetrics({ register: this.registry, prefix: 'offers_' });
  }

  /** Counts an answer by its status code. */
  answered(by: AnsweredBy, statusCode: number): void {
    const counts = this.answerCounts[by];
    counts.set(statusCode, (counts.get(statusCode) ?? 0) + 1);
  }

  /** Counts a lookup of the page cache (ReadyCache's `observe`). */
  readonly pageLookup = (outcome: 'hit' | 'miss'): void => {
    this.cacheCounts[outcome] += 1;
  };

  /** Renders with `render`, timing it under the kind of page it turned out to be. */
  async timeRender(
    entry: SsrEntry | undefined,
    address: string,
    render: () => Promise<ReadyDocument | Moved>,
  ): Promise<ReadyDocument | Moved> {
    const started = performance.now();
    const document = await render();
    this.renderDuration.observe(
      { page: pageKind(entry, address, document) },
      (performance.now() - started) / 1000,
    );
    return document;
  }

  /** Where a scrape gets `offers_ready` (one run of the checks per scrape). */
  readinessFrom(check: ReadinessCheck): void {
    this.readiness = check;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async metrics(): Promise<string> {
    if (this.readiness) this.ready.set((await this.readiness.check()).status === 'ready' ? 1 : 0);
    return this.registry.metrics();
  }

  private flushAnswers(): void {
    for (const [by, counts] of Object.entries(this.answerCounts)) {
      for (const [status, count] of counts)
        this.answers.inc({ status_code: String(status), answered_by: by }, count);
      counts.clear();
    }
  }

  private flushCacheCounts(): void {
    for (const result of ['hit', 'miss'] as const) {
      if (this.cacheCounts[result] === 0) continue;
      this.cacheRequests.inc({ cache: 'pages', result }, this.cacheCounts[result]);
      this.cacheCounts[result] = 0;
    }
  }
}

/**
 * The kind of page an address rendered as (`listing`, `store`, `notFound`, `redirect`...): a
 * bounded set, never the address, which would make a series per store and search.
 */
export function pageKind(
  entry: SsrEntry | undefined,
  address: string,
  document: ReadyDocument | Moved,
): string {
  if ('redirect' in document) return 'redirect';
  if (document.status === 404) return 'notFound';
  if (!entry) return 'unknown';
  const { path } = entry.splitLanguage(address.split('?')[0]!);
  return entry.matchPage(path).page;
}

export interface ReadinessReport {
  status: 'ready' | 'unavailable';
  /** Why not ready, one line each; empty when ready. */
  reasons: string[];
  checks: {
    database: { up: true; latencyMs: number } | { up: false; error: string };
    /** The change notifications that say when kept pages are out of date. */
    listener: { connected: boolean };
    renderer: { loaded: boolean };
  };
}

/**
 * Whether the site server should get traffic: its port takes connections, PostgreSQL answers (through a connection of the
 * probe's own, so a busy pool cannot make a healthy database look down), the change listener is
 * connected (without it no page is kept ready, and every request renders), and the renderer is
 * loaded. Not ready from the moment the server starts closing. Concurrent callers share one run.
 */
export class SiteReadiness implements ReadinessCheck {
  private connection?: pg.Client;
  private running?: Promise<ReadinessReport>;
  private stopping = false;

  constructor(
    private readonly environment: Pick<Environment, 'DATABASE_URL' | 'HEALTH_CHECK_TIMEOUT_MS'>,
    private readonly parts: {
      /** The site's own port takes connections. */
      serving: () => boolean;
      listening: () => boolean;
      rendererLoaded: () => boolean;
    },
  ) {}

  markStopping(): void {
    this.stopping = true;
  }

  check(): Promise<ReadinessReport> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async close(): Promise<void> {
    await this.discardConnection();
  }

  private async run(): Promise<ReadinessReport> {
    const database = await this.databaseCheck();
    const listener = { connected: this.parts.listening() };
    const renderer = { loaded: this.parts.rendererLoaded() };
    const reasons: string[] = [];
    if (this.stopping) reasons.push('shutting down');
    else if (!this.parts.serving()) reasons.push('not listening yet');
    if (!database.up) reasons.push(`database: ${database.error}`);
    if (!listener.connected) reasons.push('change listener: not connected');
    if (!renderer.loaded) reasons.push('renderer: not loaded');
    return {
      status: reasons.length === 0 ? 'ready' : 'unavailable',
      reasons,
      checks: { database, listener, renderer },
    };
  }

  private async databaseCheck(): Promise<ReadinessReport['checks']['database']> {
    const timeoutMs = this.environment.HEALTH_CHECK_TIMEOUT_MS;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const ping = (async () => {
        const client = await this.connect(timeoutMs);
        // The limit travels with the statement, not as a startup parameter: a transaction pooler
        // refuses those, and keeps these statements of one message on one server connection.
        await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}; SELECT 1; COMMIT`);
      })();
      await Promise.race([
        ping,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return { up: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
    } catch (error) {
      void this.discardConnection();
      return { up: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The probe's one connection: opened on first use, replaced after any failure. */
  private async connect(timeoutMs: number): Promise<pg.Client> {
    if (this.connection) return this.connection;
    const client = new pg.Client({
      connectionString: this.environment.DATABASE_URL,
      connectionTimeoutMillis: timeoutMs,
      application_name: 'web-public-health',
    });
    client.on('error', () => {
      if (this.connection === client) this.connection = undefined;
    });
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    this.connection = client;
    return client;
  }

  private async discardConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => undefined);
  }
}

export interface MonitorOptions {
  /** Log lines go here (stdout when not given); nothing is logged when `logger` is false. */
  logger?: boolean;
  logDestination?: DestinationStream;
  /** Where the operations server listens (its port may be 0); none is started when not given. */
  operations?: { port: number; host: string; listening?: (url: string) => void };
}

/**
 * The site server's log, metrics, readiness and operations port, with the few hooks the web
 * server calls: the answers Fastify gives are counted and logged by its onResponse hook, the pages
 * sent before Fastify by {@link SiteMonitor.readyAnswered}.
 */
export class SiteMonitor {
  readonly metrics = new SiteMetrics();
  readonly logger?: Logger;
  /** Whether the pages sent before Fastify are logged (debug level), and so timed. */
  readonly logsReadyAnswers: boolean;
  private readonly logReadyAnswer?: ReturnType<typeof readyAnswerLogger>;
  private server?: OperationsServer;

  constructor(
    private readonly environment: Environment,
    private readonly options: MonitorOptions,
  ) {
    if (options.logger || options.logDestination) {
      this.logger = siteLogger(environment, options.logDestination);
      this.logReadyAnswer = readyAnswerLogger(this.logger, requestIdFor);
    }
    this.logsReadyAnswers = this.logReadyAnswer !== undefined;
  }

  /** Fastify's options for its log: this log, one line per answer; none at all without a log. */
  fastifyLogging() {
    if (!this.logger) return { logger: false } as const;
    return {
      loggerInstance: this.logger as unknown as FastifyBaseLogger,
      logController: new AnswerLogController(this.logger.isLevelEnabled('debug')),
    };
  }

  /** Counts (and at debug level logs) a page kept ready, sent before Fastify saw the request. */
  readyAnswered(request: IncomingMessage, response: ServerResponse, startedAt: number): void {
    this.metrics.pageLookup('hit');
    this.metrics.answered('ready', response.statusCode);
    this.logReadyAnswer?.(request, response.statusCode, startedAt);
  }

  /** Counts Fastify's answers; starts the operations port, which closes with the server. */
  async install(
    app: FastifyInstance,
    parts: { listening: () => boolean; rendererLoaded: () => boolean },
  ): Promise<void> {
    const serving = () => app.server.listening;
    app.addHook('onResponse', (_request, reply, done) => {
      this.metrics.answered('server', reply.statusCode);
      done();
    });
    const readiness = new SiteReadiness(this.environment, { ...parts, serving });
    this.metrics.readinessFrom(readiness);
    app.addHook('preClose', (done) => {
      readiness.markStopping();
      done();
    });
    app.addHook('onClose', async () => {
      await this.server?.close();
      await readiness.close();
    });
    const operations = this.options.operations;
    if (!operations) return;
    this.server = new OperationsServer(readiness, this.metrics);
    const url = await this.server.listen(operations.port, operations.host);
    operations.listening?.(url);
  }
}
