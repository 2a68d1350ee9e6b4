// `npm start`: installs what is missing, starts PostgreSQL and Redis when they are local and down,
// builds, migrates, seeds, then runs the API, the workers and the web apps until Ctrl+C.
//
//   --no-web   do not start the web apps
//   --check    stop after the API answers its health check (a smoke test of the whole set-up)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ensureDependencies,
  ensureServices,
  ensureSessionSecret,
  fail,
  isPortOpen,
  npmCommand,
  REPO_ROOT,
  serviceUrls,
} from './local-setup.mjs';
import { API_NODE_OPTIONS, WORKERS_NODE_OPTIONS } from './node-options.mjs';

const HEALTH_TIMEOUT_MS = 60_000;
const KILL_AFTER_MS = 10_000;
const WEB_APPS = [
  { name: 'web-public', label: 'Public site', port: 5173, setting: 'PUBLIC_URL' },
  { name: 'web-backoffice', label: 'Back-office', port: 5174, setting: 'BACKOFFICE_URL' },
];
const WORKERS_PID_FILE = join(REPO_ROOT, '.run', 'workers.pid');
const COLORS = [36, 35, 33, 32, 34];

const options = parseArguments(process.argv.slice(2));
process.chdir(REPO_ROOT);

/** @type {Map<string, {child: import('node:child_process').ChildProcess, lastLines: string[], exited?: boolean}>} */
const started = new Map();
let stopping;

await main();

async function main() {
  ensureDependencies(REPO_ROOT);
  if (ensureSessionSecret(REPO_ROOT)) console.log('Wrote a random SESSION_SECRET to .env');
  await ensureServices(serviceUrls(REPO_ROOT));
  nameWebAppAddresses();
  runStep('Building', npmCommand, ['run', '--silent', 'build']);
  runStep('Migrating', process.execPath, ['api/dist/src/infrastructure/database/cli/migrate.js']);
  runStep('Seeding demo data', process.execPath, ['api/dist/src/demo/cli.js']);

  process.on('SIGINT', () => onSignal(130));
  process.on('SIGTERM', () => onSignal(143));
  process.once('exit', killLeftovers);

  const port = Number(process.env.PORT) || 3000;
  const healthUrl = `http://${probeHost(process.env.HOST)}:${port}/api/health`;
  await startApi(healthUrl);
  startWorkers();
  const webApps = options.web ? await startWebApps() : [];

  await waitForHealth(healthUrl);
  if (stopping) return; // a child died meanwhile: stopAll reports and exits
  printUrls(port, webApps);

  if (options.check) await stopAll(0);
}

function parseArguments(args) {
  const known = new Set(['--no-web', '--check']);
  const unknown = args.filter((arg) => !known.has(arg));
  if (unknown.length > 0) fail(`Unknown option ${unknown[0]}. Usage: npm start -- [--no-web] [--check]`);
  const check = args.includes('--check');
  return { check, web: !check && !args.includes('--no-web') };
}

/** npm is a .cmd script on Windows, which only a shell can run. */
function needsShell(command) {
  return process.platform === 'win32' && command === npmCommand;
}

/** Runs a one-off command with inherited output; stops everything when it fails. */
function runStep(title, command, args) {
  console.log(`${title}...`);
  const result = spawnSync(command, args, { stdio: 'inherit', shell: needsShell(command) });
  if (result.error) fail(`${title} failed: ${result.error.message}`);
  if (result.status !== 0) fail(`${title} failed (exit code ${result.status ?? result.signal}).`);
}

// ---------------------------------------------------------------------------------------------
// The long-running processes

async function startApi(healthUrl) {
  if ((await healthStatus(healthUrl)) !== undefined) {
    console.log(`API already running at ${healthUrl}; not starting another.`);
    return;
  }
  startChild('api', process.execPath, [...API_NODE_OPTIONS, 'api/dist/src/main.js']);
}

function startWorkers() {
  const pid = runningWorkersPid();
  if (pid) {
    console.log(`Workers already running (pid ${pid}, ${WORKERS_PID_FILE}); not starting another.`);
    return;
  }
  const child = startChild('workers', process.execPath, [
    ...WORKERS_NODE_OPTIONS,
    'workers/dist/src/main.js',
  ]);
  mkdirSync(join(REPO_ROOT, '.run'), { recursive: true });
  writeFileSync(WORKERS_PID_FILE, `${child.pid}\n`);
  child.once('exit', () => removeWorkersPidFile(child.pid));
}

/** The pid in .run/workers.pid when that process is alive; a stale file is removed. */
function runningWorkersPid() {
  if (!existsSync(WORKERS_PID_FILE)) return undefined;
  const pid = Number(readFileSync(WORKERS_PID_FILE, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return pid;
  rmSync(WORKERS_PID_FILE, { force: true });
  return undefined;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM'; // alive, but owned by another user
  }
}

function removeWorkersPidFile(pid) {
  try {
    if (Number(readFileSync(WORKERS_PID_FILE, 'utf8').trim()) === pid) rmSync(WORKERS_PID_FILE);
  } catch {
    // already gone
  }
}

/** Where a web app started here is served: what is printed, and what links name. */
function webAppUrl(app) {
  return `http://localhost:${app.port}`;
}

/**
 * Links in mails and referral links name the addresses printed at the end (PUBLIC_URL for the
 * public site and the API behind it, BACKOFFICE_URL for the back-office), unless the environment
 * or .env (loaded by now) sets them. Set before any child starts, so all of them agree.
 */
function nameWebAppAddresses() {
  for (const app of WEB_APPS) process.env[app.setting] ||= webAppUrl(app);
  // A developer on this machine is never asked to wait; a client named by X-Forwarded-For from
  // loopback (as a test or a load generator sends it) still meets the limits.
  process.env.RATE_LIMIT_EXEMPT ??= 'loopback';
}

/** Starts the web apps whose workspace exists; returns those that are (now) running. */
async function startWebApps() {
  const present = WEB_APPS.filter((app) => existsSync(join(REPO_ROOT, app.name, 'package.json')));
  for (const app of present) {
    // Vite listens on "localhost", which may be ::1 only; connecting by name tries both families.
    if (await isPortOpen('localhost', app.port)) {
      console.log(`${app.name} already answers on port ${app.port}; not starting another.`);
      continue;
    }
    if (app.name === 'web-public') {
      // The site's own server renders every page, with Vite's development build behind it.
      const api = `http://127.0.0.1:${Number(process.env.PORT) || 3000}`;
      process.env.API_UPSTREAM_URL ||= api;
      startChild(app.name, process.execPath, ['dist/web-public/server/main.js', '--dev']);
    } else startChild(app.name, npmCommand, ['run', 'dev', '-w', app.name]);
  }
  return present;
}

/** Spawns a long-running child whose output is forwarded line by line with a `name |` prefix. */
function startChild(name, command, args) {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group, so stopping also reaches grandchildren (npm -> vite).
    detached: process.platform !== 'win32',
    shell: needsShell(command),
  });
  const entry = { child, lastLines: [] };
  started.set(name, entry);
  const prefix = prefixFor(name, started.size - 1);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      entry.lastLines.push(line);
      if (entry.lastLines.length > 30) entry.lastLines.shift();
      process.stdout.write(`${prefix}${line}\n`);
    });
  }
  child.once('error', (error) => {
    console.error(`${prefix}could not start: ${error.message}`);
    stopAll(1);
  });
  child.once('exit', (code, signal) => {
    entry.exited = true;
    if (stopping) return;
    console.error(`${prefix}exited unexpectedly (${signal ?? `exit code ${code}`}); stopping the rest.`);
    stopAll(1);
  });
  return child;
}

function prefixFor(name, index) {
  const width = Math.max(...['workers', ...WEB_APPS.map((app) => app.name)].map((n) => n.length));
  const text = `${name.padEnd(width)} | `;
  const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
  return useColor ? `\x1b[${COLORS[index % COLORS.length]}m${text}\x1b[0m` : text;
}

// ---------------------------------------------------------------------------------------------
// Health and URLs

/** Where to reach the API from here, given the address it listens on. */
function probeHost(host) {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The HTTP status of the health endpoint, or undefined when nothing answers. */
async function healthStatus(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

async function waitForHealth(url) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let status;
  while (Date.now() < deadline) {
    if (stopping) return;
    status = await healthStatus(url);
    if (status === 200) return;
    await delay(500);
  }
  const api = started.get('api');
  console.error(
    `The API did not report healthy within ${HEALTH_TIMEOUT_MS / 1000} s (${status ? `last answer: HTTP ${status}` : 'no answer'}) at ${url}.`,
  );
  if (api?.lastLines.length) console.error(`Its last output:\n${api.lastLines.join('\n')}`);
  await stopAll(1);
}

/** The operations ports, as the processes read them (defaults as in api/src/infrastructure/config/environment.ts). */
function operationsUrls(webApps) {
  const host = probeHost(process.env.OPERATIONS_HOST);
  const apiPort = process.env.API_OPERATIONS_PORT || '9464';
  const workersPort = process.env.WORKERS_OPERATIONS_PORT || '9465';
  const webPort = process.env.WEB_OPERATIONS_PORT || '9466';
  const site = webApps.some((app) => app.name === 'web-public') ? [`http://${host}:${webPort}/metrics`] : [];
  return [`http://${host}:${apiPort}/metrics`, `http://${host}:${workersPort}/metrics`, ...site].join(', ');
}

function printUrls(port, webApps) {
  const api = `http://localhost:${port}/api`;
  const rows = [
    ...webApps.map((app) => [app.label, `${webAppUrl(app)}/`]),
    // Set to another address (a tunnel, a proxy): mails link there rather than to the above.
    ...webApps
      .filter((app) => process.env[app.setting].replace(/\/+$/, '') !== webAppUrl(app))
      .map((app) => [`${app.label} in mails (${app.setting})`, process.env[app.setting]]),
    ['API', api],
    ['OpenAPI docs', `${api}/docs`],
    ['Readiness', `${api}/health/ready`],
    [
      `Metrics (API, workers${webApps.some((app) => app.name === 'web-public') ? ', site' : ''})`,
      operationsUrls(webApps),
    ],
    ['Queue dashboard (admins)', `${api}/admin/queues`],
    // Without SMTP_URL the workers keep every mail in a development mailbox.
    ...(process.env.SMTP_URL ? [] : [['Development mailbox (admins)', `${api}/admin/dev-mailbox`]]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, url]) => `  ${label.padEnd(width)}  ${url}`);
  console.log(`\nOffers Marketplace is running:\n${lines.join('\n')}`);
  if (!options.check) console.log('\nPress Ctrl+C to stop.\n');
}

// ---------------------------------------------------------------------------------------------
// Stopping

function signalChild(child, signal) {
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to every child started here, SIGKILL to those still there after 10 s, then exit. */
function stopAll(exitCode) {
  stopping ??= (async () => {
    const names = [...started].filter(([, entry]) => !entry.exited && entry.child.pid).map(([name]) => name);
    const running = names.map((name) => started.get(name));
    if (names.length > 0) console.log(`Stopping ${names.join(', ')}...`);
    const exits = running.map(({ child }) => new Promise((resolve) => child.once('exit', resolve)));
    for (const { child } of running) signalChild(child, 'SIGTERM');
    const killTimer = setTimeout(() => {
      for (const { child } of running) signalChild(child, 'SIGKILL');
    }, KILL_AFTER_MS);
    await Promise.all(exits);
    clearTimeout(killTimer);
    process.exit(exitCode);
  })();
  return stopping;
}

/** A second Ctrl+C while stopping does not wait for the 10 s grace period. */
function onSignal(exitCode) {
  if (!stopping) return stopAll(exitCode);
  for (const { child, exited } of started.values()) if (!exited) signalChild(child, 'SIGKILL');
  process.exit(exitCode);
}

/** Last resort when this process exits some other way: no child is left behind. */
function killLeftovers() {
  for (const [name, { child, exited }] of started) {
    if (exited) continue;
    signalChild(child, 'SIGTERM');
    if (name === 'workers') removeWorkersPidFile(child.pid);
  }
}
