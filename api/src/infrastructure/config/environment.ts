import { randomBytes } from 'node:crypto';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
  validateSync,
} from 'class-validator';
import { FEED_FETCH_DEFAULTS } from '../../rules/feeds.js';
import { ANONYMOUS_CLICK_KEEP_DAYS } from '../../rules/privacy.js';
import { CLICK_OUT_WINDOW_SECONDS } from '../../rules/rate-limits.js';
import { addressListProblem } from '../http/client-address.js';

/** A URL whose scheme is one of `protocols` and that names a host. */
function IsServiceUrl(protocols: string[], validationOptions?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isServiceUrl',
      target: target.constructor,
      propertyName,
      options: {
        message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
        ...validationOptions,
      },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          try {
            const url = new URL(value);
            return protocols.includes(url.protocol) && url.hostname.length > 0;
          } catch {
            return false;
          }
        },
      },
    });
}

/** A comma-separated list of addresses, CIDR ranges and proxy-addr's names (see addressList). */
function IsAddressList() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isAddressList',
      target: target.constructor,
      propertyName,
      options: { message: 'must list addresses or CIDR ranges, separated by commas' },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && addressListProblem(value) === null,
      },
    });
}

/** A site's address without a trailing slash, so `${PUBLIC_URL}/path` is one slash whatever was set. */
const withoutTrailingSlash = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/\/+$/, '') : value;

const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** One entry of FEED_ALLOWED_HOSTS: a name, an IPv4 address or a bracketed IPv6 one, and a port. */
const FEED_HOST = String.raw`(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?`;

const SESSION_SECRET_RULE = 'must be set to a random secret of at least 32 characters';

/**
 * Every setting the API and the workers read, with its default. Validated once at start-up:
 * a missing or malformed value stops the process with one line naming it.
 */
export class Environment {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsServiceUrl(['postgres:', 'postgresql:'])
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/offers';

  /**
   * PostgreSQL itself, for what needs a session of its own: the LISTEN connection of each process,
   * migrations (and their advisory lock), one-off commands. Set when DATABASE_URL is a transaction
   * pooler (PgBouncer); DATABASE_URL when unset (docs/deployment.md § Connections and the pooler).
   */
  @ValidateIf(
    (env: Environment) => env.DATABASE_DIRECT_URL !== undefined || env.DATABASE_POOLER === 'transaction',
  )
  @IsServiceUrl(['postgres:', 'postgresql:'], {
    message:
      'must be a URL starting with postgres:// or postgresql://, PostgreSQL itself when DATABASE_POOLER is transaction',
  })
  DATABASE_DIRECT_URL: string;

  /**
   * `transaction` when DATABASE_URL is a pooler in transaction mode (PgBouncer's pool_mode =
   * transaction): no named prepared statements, no settings sent when a connection opens (the
   * statement, lock and idle-transaction limits are set in each transaction instead). `none`: a
   * direct connection to PostgreSQL.
   */
  @IsIn(['none', 'transaction'])
  DATABASE_POOLER: 'none' | 'transaction' = 'none';

  @IsServiceUrl(['redis:', 'rediss:'])
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix of every BullMQ key, so several installations (or test files) can share one Redis. */
  @IsString()
  @MinLength(1)
  QUEUE_PREFIX = 'offers';

  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '127.0.0.1';

  /** Where the public site's own server listens (`npm run serve:web`; `npm start` uses 5173). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  WEB_PORT = 4173;

  @IsString()
  WEB_HOST = '127.0.0.1';

  /** Where the public site's server forwards `/api`: the API as seen from that server. */
  @IsServiceUrl(['http:', 'https:'])
  API_UPSTREAM_URL = 'http://127.0.0.1:3000';

  /**
   * Signs mail links (email confirmation, newsletter, password reset). Required in production. No
   * secret is written in the source: outside production a process without one makes its own
   * random secret (so links signed by another process do not verify), and `npm start` writes a
   * random one to `.env` on first start, which every process then shares.
   */
  @ValidateIf((env: Environment) => env.NODE_ENV === 'production' || env.SESSION_SECRET !== undefined)
  @IsString({ message: SESSION_SECRET_RULE })
  @MinLength(32, { message: SESSION_SECRET_RULE })
  SESSION_SECRET: string;

  /** How long a sign-in lasts. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(24 * 90)
  SESSION_TTL_HOURS = 24 * 7;

  /** A session unused this long ends, whatever its expiry. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(24 * 90)
  SESSION_IDLE_HOURS = 24;

  /**
   * The proxies (load balancers, a CDN, the public site's server) whose `X-Forwarded-For` is
   * believed, so limits and counters see the shopper behind them: addresses, CIDR ranges or the
   * names `loopback`, `linklocal`, `uniquelocal`, separated by commas.
   */
  @IsAddressList()
  TRUSTED_PROXIES = 'loopback';

  /**
   * Client addresses the per-address rate limits leave alone (monitors, load generators), in the
   * same form. Empty by default; `npm start` lists loopback.
   */
  @IsAddressList()
  RATE_LIMIT_EXEMPT = '';

  /** Anonymous click-outs from one address to one coupon within this time are one click. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  CLICK_OUT_WINDOW_SECONDS = CLICK_OUT_WINDOW_SECONDS;

  /**
   * Anonymous click-outs older than this many days become daily counts per coupon and are
   * deleted (a shopper's stay: their cashback and claims name them).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(3650)
  ANONYMOUS_CLICK_KEEP_DAYS = ANONYMOUS_CLICK_KEEP_DAYS;

  /** Consumers' inbox rows of processed events older than this many days are deleted (the outbox stays). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(3650)
  INBOX_KEEP_DAYS = 30;

  /** Mails in the development mailbox (no `SMTP_URL`) older than this many hours are deleted. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  DEV_MAILBOX_KEEP_HOURS = 24;

  /** The first admin, created by the seed when no admin exists. */
  @IsString()
  @MinLength(3)
  ADMIN_USERNAME = 'admin';

  @IsEmail({}, { message: 'must be an email address' })
  ADMIN_EMAIL = 'admin@offers.localhost';

  @ValidateIf((env: Environment) => env.ADMIN_PASSWORD !== undefined)
  @IsString()
  @MinLength(8, { message: 'must be at least 8 characters long' })
  ADMIN_PASSWORD?: string;

  /** SMTP server for outgoing mail; without it, development runs a local mail catcher. */
  @ValidateIf((env: Environment) => env.NODE_ENV === 'production' || env.SMTP_URL !== undefined)
  @IsServiceUrl(['smtp:', 'smtps:'], { message: 'must be set to a URL starting with smtp:// or smtps://' })
  SMTP_URL?: string;

  @IsString()
  @MinLength(3)
  MAIL_FROM = 'Offers Marketplace <no-reply@offers.localhost>';

  /**
   * Where shoppers reach the public site: every link to it and to the API in mails and referral
   * links starts here (the site forwards `/api`), and CORS allows it. `npm start` sets it to the
   * address of the site it starts unless it is set; the default is that address.
   */
  @Transform(withoutTrailingSlash)
  @IsServiceUrl(['http:', 'https:'])
  PUBLIC_URL = 'http://localhost:5173';

  /** Where admins and merchants reach the back-office (links in their mails, and CORS). */
  @Transform(withoutTrailingSlash)
  @IsServiceUrl(['http:', 'https:'])
  BACKOFFICE_URL = 'http://localhost:5174';

  /** Where clients reach this API directly: secure cookies when https, postback addresses, CORS. */
  @Transform(withoutTrailingSlash)
  @IsServiceUrl(['http:', 'https:'])
  API_URL = 'http://localhost:3000';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * Seconds a CDN keeps a public page or read (`s-maxage`). Changes of coupons, stores, cashback and
   * content are purged within about CDN_PURGE_WAIT_MS plus a call (CDN_PURGE_URL); this bounds only
   * what no event announces (the popular order following reveals), as the site's own kept pages do.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(86_400)
  CDN_MAX_AGE = 60;

  /** Seconds past CDN_MAX_AGE a CDN may still answer from its copy while it asks again. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(86_400)
  CDN_STALE_SECONDS = 30;

  /**
   * Where the workers POST `{"paths": [...]}` of the public paths a change touched, once the read
   * models committed it (the CDN's purge endpoint, or a small adapter to it). Unset: no purges.
   */
  @ValidateIf((env: Environment) => env.CDN_PURGE_URL !== undefined)
  @IsServiceUrl(['http:', 'https:'])
  CDN_PURGE_URL?: string;

  /** Changes within this window are purged together, each path once. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(60_000)
  CDN_PURGE_WAIT_MS = 1000;

  /** How often a failing event consumer is tried before its job is left as failed. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  EVENT_ATTEMPTS = 8;

  /** First retry delay of a failing event consumer; it doubles on each attempt. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  EVENT_BACKOFF_MS = 1000;

  /**
   * Events a worker process holds at once. Most of an event's time in a worker is waiting on
   * PostgreSQL and Redis, and events held together are applied in lots (one commit per lot and
   * consumer), so holding many costs little and saves commits.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(256)
  EVENT_CONCURRENCY = 64;

  /** Cashback on a purchase when its store has no rate of its own (nor its coupon or category): a percentage, up to 2 decimals. */
  @Matches(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, { message: 'must be a percentage from 0 to 100' })
  CASHBACK_DEFAULT_RATE_PERCENT = '5';

  /**
   * The share of a network's payout the site passes on as cashback, in percent: a feed's payout
   * of 10 % proposes a rate of 7 % at 70. Proposals wait for an admin; nothing is applied.
   */
  @Matches(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, { message: 'must be a percentage from 0 to 100' })
  CASHBACK_SHARE_PERCENT = '70';

  /** What a referrer earns when someone they referred makes a first confirmed purchase, in rupees. */
  @Matches(/^\d{1,7}(\.\d{1,2})?$/, { message: 'must be an amount in rupees with up to 2 decimals' })
  REFERRAL_BONUS_RUPEES = '100';

  /** The smallest confirmed purchase, in rupees, that earns the shopper's referrer the bonus. */
  @Matches(/^\d{1,7}(\.\d{1,2})?$/, { message: 'must be an amount in rupees with up to 2 decimals' })
  REFERRAL_MIN_PURCHASE_RUPEES = '500';

  /** Days within which admins are expected to answer a missing-cashback claim (shown to the shopper). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(365)
  CLAIM_ANSWER_DAYS = 30;

  /**
   * Days between a confirmed account deletion and its erasure, during which signing in or the
   * mailed link cancels it; 0 erases at the next run of the erasure job.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(90)
  ACCOUNT_DELETION_GRACE_DAYS = 7;

  /**
   * Years an erased account's earnings, payouts and claims (and its pseudonymous row) are kept
   * after the erasure before they are removed; 8 as the Companies Act 2013 s.128(5) keeps books of
   * account (see docs/decisions.md § Privacy).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(30)
  ERASED_RECORDS_KEEP_YEARS = 8;

  /** The smallest payout of confirmed cashback a shopper may request, in rupees (more than 0). */
  @Matches(/^(?!0+(\.0{1,2})?$)\d{1,7}(\.\d{1,2})?$/, {
    message: 'must be an amount in rupees above 0 with up to 2 decimals',
  })
  PAYOUT_MIN_RUPEES = '250';

  /**
   * Hours of India's day in which store alerts wait (from-until, 24-hour clock), or `none`: an
   * offer approved at night reaches its followers in the morning.
   */
  @Matches(/^(none|([01]?\d|2[0-3])-([01]?\d|2[0-3]))$/, { message: 'must be none or two hours, like 22-7' })
  STORE_ALERT_QUIET_HOURS = '22-7';

  /**
   * How long a shopper's purchase tracked or cashback confirmed waits before its mail, so that
   * what happens together (a basket of orders, a store confirming many) goes in one digest; the
   * digest goes at most once a day, outside STORE_ALERT_QUIET_HOURS.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(1440)
  EARNING_MAIL_WAIT_MINUTES = 30;

  /** Mails a worker process sends at once (each holds a database connection while it is sent). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(32)
  MAIL_CONCURRENCY = 4;

  /** Which parts a workers process runs: any of relay, events, scheduler, feeds (default: all). */
  @Matches(/^\s*(relay|events|scheduler|feeds)(\s*,\s*(relay|events|scheduler|feeds))*\s*$/, {
    message: 'must list any of relay, events, scheduler, feeds, separated by commas',
  })
  WORKER_ROLES = 'relay,events,scheduler,feeds';

  /**
   * Connections of the API's main database pool, per API process. PostgreSQL's `max_connections`
   * (or the pooler's clients) must cover every process's pools together (docs/deployment.md).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(2)
  @Max(500)
  DATABASE_POOL_SIZE = 20;

  /** Connections of a workers process's database pool. */
  @Transform(toInteger)
  @IsInt()
  @Min(2)
  @Max(500)
  WORKERS_POOL_SIZE = 20;

  /** Connections of the public site's server's database pool, per server process. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(500)
  WEB_POOL_SIZE = 10;

  /**
   * Connections the API keeps apart for sessions and sign-in: requests stuck on a slow table can
   * take every connection of the main pool, never these.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  ACCESS_POOL_SIZE = 4;

  /** Longest wait for a free pool connection (or a new one to open); past it the request gets 503. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DATABASE_POOL_WAIT_MS = 2000;

  /** Longest SQL statement of the API (PostgreSQL `statement_timeout`). */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(600_000)
  API_STATEMENT_TIMEOUT_MS = 5000;

  /** Longest wait of an API statement for a lock on a row or a table (`lock_timeout`). */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(600_000)
  API_LOCK_TIMEOUT_MS = 2000;

  /** An API transaction left idle this long is ended by PostgreSQL (`idle_in_transaction_session_timeout`). */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(600_000)
  API_IDLE_IN_TRANSACTION_TIMEOUT_MS = 15_000;

  /** The workers' statements: projections, mail batches, sweeps, the rebuild's pages. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WORKERS_STATEMENT_TIMEOUT_MS = 60_000;

  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WORKERS_LOCK_TIMEOUT_MS = 30_000;

  /** Must exceed the longest SMTP exchange: a mail is sent inside the transaction that holds its row. */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  WORKERS_IDLE_IN_TRANSACTION_TIMEOUT_MS = 90_000;

  /** An API request not answered within this gets 503 with Retry-After (uploads: UPLOAD_TIMEOUT_MS). */
  @Transform(toInteger)
  @IsInt()
  @Min(500)
  @Max(600_000)
  REQUEST_TIMEOUT_MS = 15_000;

  /** The same for requests with a multipart body, whose files may come over a slow connection. */
  @Transform(toInteger)
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  UPLOAD_TIMEOUT_MS = 120_000;

  /**
   * A job's lock in BullMQ, renewed at half this while its worker lives. A killed worker's jobs are
   * taken up again once the lock has expired and a stalled-job check has seen it twice (below), so
   * at most this plus two checks after the kill.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  JOB_LOCK_MS = 5000;

  /** How often every workers process looks for jobs whose lock expired. */
  @Transform(toInteger)
  @IsInt()
  @Min(500)
  @Max(600_000)
  JOB_STALLED_CHECK_MS = 2000;

  /**
   * On SIGTERM a process stops taking work and lets what runs finish for this long; then the API
   * answers what is left with 503 and the workers hand their jobs back to the queue, and it exits.
   * Below docker's 10 s between SIGTERM and SIGKILL.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 8000;

  /**
   * Readiness (`/api/health/ready`, the workers' `/health/ready`) answers 503 naming each of these
   * that is exceeded; 0 turns that check off. The oldest event not yet handed to the queue:
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_UNPUBLISHED_AGE_SECONDS = 30;

  /** The oldest event handed to the queue and not yet applied by every consumer. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_EVENT_LAG_SECONDS = 60;

  /** Events whose consumers gave up (they stay failed until someone retries them). */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_FAILED_EVENTS = 100;

  /** Jobs waiting or delayed in the queues. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_QUEUE_DEPTH = 10_000;

  /** The longest wait of any statement of this database for a lock. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_LOCK_WAIT_MS = 5000;

  /** Callers of this process waiting for a connection of one of its pools. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  READY_MAX_POOL_WAITING = 10;

  /** How long each readiness check (database, Redis, queues) may take before it counts as failed. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(60_000)
  HEALTH_CHECK_TIMEOUT_MS = 1500;

  /**
   * Where the API serves `/metrics` and `/health/*` for monitors, apart from the public port (0:
   * any free port, named in the log).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  API_OPERATIONS_PORT = 9464;

  /** The same for each workers process, which has no other HTTP port. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKERS_OPERATIONS_PORT = 9465;

  /** The same for the public site's server (its pages' render times, page cache, answers). */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  WEB_OPERATIONS_PORT = 9466;

  /** Where the operations ports listen (0.0.0.0 in containers, for Prometheus). */
  @IsString()
  OPERATIONS_HOST = '127.0.0.1';

  /** Largest image upload in megabytes, for every upload of the product. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(50)
  MEDIA_MAX_MB = 5;

  /**
   * Where new images go: `database` (bytea rows, the embedded default) or `s3` (an S3-compatible
   * bucket, S3_* below). Each image's row says where its bytes are, so both kinds are served while
   * `npm run media:move` moves them.
   */
  @IsIn(['database', 's3'])
  MEDIA_STORE: 'database' | 's3' = 'database';

  /** The bucket of images; required when MEDIA_STORE is s3. */
  @ValidateIf((env: Environment) => env.MEDIA_STORE === 's3' || env.S3_BUCKET !== undefined)
  @IsString({ message: 'must name the bucket when MEDIA_STORE is s3' })
  @MinLength(3, { message: 'must name the bucket when MEDIA_STORE is s3' })
  S3_BUCKET?: string;

  /** The S3 API's address for a service other than AWS (MinIO, Ceph, R2...); empty: AWS. */
  @ValidateIf((env: Environment) => env.S3_ENDPOINT !== undefined)
  @IsServiceUrl(['http:', 'https:'])
  S3_ENDPOINT?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  /** Credentials; empty: the SDK's own chain (environment, instance or task role). */
  @ValidateIf((env: Environment) => env.S3_ACCESS_KEY_ID !== undefined)
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @ValidateIf((env: Environment) => env.S3_SECRET_ACCESS_KEY !== undefined)
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** `true` for servers that address buckets by path (MinIO and the like), not by host name. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  S3_FORCE_PATH_STYLE = false;

  /**
   * The public address of the bucket's `public/` objects (a CDN, or the bucket's own address),
   * without a trailing slash: `/api/media/...` then redirects there. Empty: the API streams them.
   */
  @ValidateIf((env: Environment) => env.MEDIA_PUBLIC_BASE_URL !== undefined)
  @IsServiceUrl(['http:', 'https:'])
  @Transform(withoutTrailingSlash)
  MEDIA_PUBLIC_BASE_URL?: string;

  /**
   * An object written for an upload whose row has not committed after this long is taken for the
   * leftover of a rolled-back transaction and deleted by the workers' sweep. Longer than any upload
   * takes to write its objects.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(7 * 24 * 60)
  MEDIA_UPLOAD_GRACE_MINUTES = 60;

  /**
   * Hosts feeds may be fetched from although they are not public addresses, over plain http too:
   * `host:port` entries separated by commas (a bare host stands for port 80 or 443), such as
   * `127.0.0.1:8089` for a development or test server. Empty in production: every other feed is
   * fetched over https from a public address.
   */
  @Matches(new RegExp(`^(${FEED_HOST}(\\s*,\\s*${FEED_HOST})*)?$`), {
    message: 'must list host:port entries separated by commas',
  })
  FEED_ALLOWED_HOSTS = '';

  /** Largest feed in megabytes, counted after decompression too (a gzip bomb stops here). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(4096)
  FEED_MAX_MB = FEED_FETCH_DEFAULTS.maxMegabytes;

  /** A feed server's answer must begin (names, connection, headers) within this. */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  FEED_CONNECT_TIMEOUT_MS = FEED_FETCH_DEFAULTS.connectTimeoutMs;

  /** Longest wait for a feed's next bytes while the import is ready for them. */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  FEED_IDLE_TIMEOUT_MS = FEED_FETCH_DEFAULTS.idleTimeoutMs;

  /** Largest feed file an admin uploads (`POST /api/admin/feed-sources/:id/runs`), gzip or not. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(1024)
  FEED_UPLOAD_MAX_MB = 50;

  /** The first wait before a failed feed run is tried again; each later wait doubles it. */
  @Transform(toInteger)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  FEED_RETRY_DELAY_MS = 30_000;
}

export class ConfigurationError extends Error {}

/** Reads and checks the environment; throws a one-line {@link ConfigurationError} naming the bad setting. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const defined = Object.fromEntries(
    Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''),
  );
  const environment = plainToInstance(Environment, defined, { exposeDefaultValues: true });
  const errors = validateSync(environment, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    // class-validator lists the constraints bottom-up; the top one (the type check) says most.
    const reason = Object.values(first.constraints ?? {}).at(-1) ?? 'is invalid';
    const shown =
      first.property.includes('SECRET') || first.property.includes('SMTP')
        ? ''
        : ` (got "${String(first.value)}")`;
    const text = reason.startsWith(`${first.property} `) ? reason.slice(first.property.length + 1) : reason;
    throw new ConfigurationError(`Configuration error: ${first.property} ${text}${shown}`);
  }
  // Outside production only (production was refused above): this process's own secret.
  environment.SESSION_SECRET ??= randomBytes(32).toString('base64url');
  environment.DATABASE_DIRECT_URL ??= environment.DATABASE_URL;
  return environment;
}

/** Loads `.env` when present (values already in the environment win), then validates. */
export function loadEnvironment(): Environment {
  try {
    process.loadEnvFile?.();
  } catch {
    // no .env file: the environment alone is used
  }
  return validateEnvironment(process.env);
}

/** Validates or ends the process with a single line on stderr, as start-up scripts expect. */
export function loadEnvironmentOrExit(): Environment {
  try {
    return loadEnvironment();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
