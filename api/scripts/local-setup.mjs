// Brings a checkout to the point where the API can start: dependencies installed, PostgreSQL and
// Redis reachable. Node built-ins only, because it runs before `npm install`.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Same defaults as api/src/infrastructure/config/environment.ts.
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/offers';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const WORKSPACES = ['api', 'workers', 'test', 'web-public', 'web-backoffice'];
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const START_TIMEOUT_MS = 30_000;
const REMOTE_WAIT_MS = 5_000;
const COMPOSE_HINT = 'or run `docker compose up -d postgres redis`';

export const npmCommand = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Prints one line and ends the process: the caller has nothing useful left to do. */
export function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Loads `<root>/.env` into process.env (values already set win), once. */
export function loadDotEnv(root = REPO_ROOT) {
  const file = join(root, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * Makes sure every process started from this checkout signs links with one secret: when neither
 * the environment nor `.env` sets SESSION_SECRET, a random one is appended to `.env` (created if
 * missing) and used from then on. No secret is written in the source. Returns whether one was made.
 */
export function ensureSessionSecret(root = REPO_ROOT) {
  const file = join(root, '.env');
  loadDotEnv(root);
  const kept = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')).SESSION_SECRET : undefined;
  if (process.env.SESSION_SECRET || kept) {
    process.env.SESSION_SECRET ||= kept;
    return false;
  }
  const secret = randomBytes(32).toString('base64url');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const separator = before === '' || before.endsWith('\n') ? '' : '\n';
  appendFileSync(
    file,
    `${separator}# Signs mail links; written by npm start on first start.\nSESSION_SECRET=${secret}\n`,
    {
      mode: 0o600,
    },
  );
  process.env.SESSION_SECRET = secret;
  return true;
}

/** The service URLs the API will use, with .env applied; an empty value means the default. */
export function serviceUrls(root = REPO_ROOT) {
  loadDotEnv(root);
  return {
    databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL,
  };
}

// ---------------------------------------------------------------------------------------------
// Dependencies

/** Why `npm install` is needed, or undefined when node_modules matches the manifests. */
export function installReason(root) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return 'node_modules is missing or incomplete';
  const installedAt = statSync(marker).mtimeMs;
  const manifests = [
    join(root, 'package-lock.json'),
    join(root, 'package.json'),
    ...WORKSPACES.map((workspace) => join(root, workspace, 'package.json')),
  ];
  const changed = manifests.find((file) => existsSync(file) && statSync(file).mtimeMs > installedAt);
  return changed && `${relative(root, changed)} changed since the last install`;
}

/**
 * Runs `npm install` when needed. Never `npm ci`: a lockfile written on one platform can lack
 * other platforms' optional native packages, which `npm ci` refuses.
 */
export function ensureDependencies(root = REPO_ROOT) {
  const reason = installReason(root);
  if (!reason) return;
  console.log(`Installing dependencies: ${reason}.`);
  const result = spawnSync(npmCommand, ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.error) fail(`Could not run npm: ${result.error.message}`);
  if (result.status !== 0) fail(`npm install failed (exit code ${result.status ?? result.signal}).`);
  // npm leaves the marker untouched when nothing changed; touch it so the next run skips install.
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker)) {
    const now = new Date();
    utimesSync(marker, now, now);
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL and Redis

/** Resolves true when a TCP connection to host:port succeeds within timeoutMs. */
export function isPortOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitForPort(host, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(host, port)) return true;
    await delay(250);
  }
  return false;
}

function endpoint(url, defaultPort) {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1'); // IPv6 hosts come bracketed
  return { host, port: Number(parsed.port) || defaultPort };
}

/** Highest installed PostgreSQL major version, from the Debian layout /etc/postgresql/<version>. */
function postgresVersion() {
  if (!existsSync('/etc/postgresql')) return undefined;
  const versions = readdirSync('/etc/postgresql').filter((name) => /^\d+(\.\d+)?$/.test(name));
  return versions.sort((a, b) => Number(b) - Number(a))[0];
}

/** Runs a start command; returns an error text, or undefined when it succeeded. */
function runStart(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error?.code === 'ENOENT') return `${command} is not installed`;
  if (result.error) return `${command} failed: ${result.error.message}`;
  if (result.status !== 0) return `\`${command} ${args.join(' ')}\` failed (exit code ${result.status})`;
  return undefined;
}

const SERVICES = {
  postgres: {
    label: 'PostgreSQL',
    defaultPort: 5432,
    start() {
      const version = postgresVersion();
      if (!version) return 'no PostgreSQL cluster found in /etc/postgresql';
      return runStart('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
    },
  },
  redis: {
    label: 'Redis',
    defaultPort: 6379,
    start({ host, port }) {
      const bind = host === '::1' ? '::1' : '127.0.0.1';
      return runStart('redis-server', [
        '--daemonize',
        'yes',
        '--bind',
        bind,
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
      ]);
    },
  },
};

async function ensureService(service, url) {
  const { host, port } = endpoint(url, service.defaultPort);
  const where = `${host}:${port}`;
  if (await isPortOpen(host, port)) return;

  if (!LOCAL_HOSTS.has(host)) {
    if (await waitForPort(host, port, REMOTE_WAIT_MS)) return;
    fail(`${service.label} at ${where} is not reachable; check the URL or start it there.`);
  }

  console.log(`Starting ${service.label} on ${where}...`);
  const problem = service.start({ host, port });
  if (problem) fail(`${service.label} is not running on ${where} and ${problem}: start it, ${COMPOSE_HINT}.`);
  if (!(await waitForPort(host, port, START_TIMEOUT_MS))) {
    fail(`${service.label} was started but ${where} accepts no connections after 30 s; ${COMPOSE_HINT}.`);
  }
}

/** Makes sure PostgreSQL and Redis accept connections, starting local ones that are down. */
export async function ensureServices({ databaseUrl, redisUrl } = serviceUrls()) {
  await ensureService(SERVICES.postgres, databaseUrl || DEFAULT_DATABASE_URL);
  await ensureService(SERVICES.redis, redisUrl || DEFAULT_REDIS_URL);
}
