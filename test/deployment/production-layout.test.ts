import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as dockerignore from '@balena/dockerignore';
import { afterAll, describe, expect, it } from '@jest/globals';
import { dropDatabase } from '@offers/api/platform';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { dockerfiles, type ParsedDockerfile } from '../support/dockerfiles.js';
import { freePort, ROOT, type RunningProcess, startNode } from '../support/processes.js';
import { eventually, TEST_REDIS_URL } from '../support/test-environment.js';

/**
 * The images' layout made without Docker, by the Dockerfiles' own instructions: a clean copy of
 * the repository (what git tracks or would add, less .dockerignore), their build stage's RUN
 * commands in it, their final stage's COPY and RUN into a second folder, then each image's CMD
 * started from there against this machine's PostgreSQL and Redis. One build for the three
 * images: their build stages and installs are the same (test/deployment/images.test.ts).
 */

// CommonJS whose types declare a default export: in ESM the factory is the module's default.
const ignore = (dockerignore as unknown as { default: () => dockerignore.Ignore }).default;

const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';
/** The Dockerfiles' WORKDIR, which their COPY sources and destinations name. */
const APP = '/app';
/** What a production install must not hold: the build's and the tests' tools. */
const DEV_PACKAGES = [
  'typescript',
  'jest',
  '@nestjs/cli',
  '@nestjs/testing',
  'vite',
  '@swc/core',
  '@biomejs/biome',
];

const work = mkdtempSync(join(tmpdir(), 'offers-layout-'));
const buildDir = join(work, 'build');
const appDir = join(work, 'app');
const databaseUrl = `${SERVER_URL}/offers_test_production_layout_${randomBytes(4).toString('hex')}`;
const started: RunningProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map((running) => running.stop()));
  await dropDatabase(databaseUrl).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}, 120_000);

/**
 * The environment a RUN step sees in an image: the stage's ENV and a plain PATH and HOME, none
 * of the npm settings `npm test` passes to its children.
 */
function stageEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && !name.startsWith('JEST')),
  );
  return { ...inherited, NODE_ENV: '', ...extra };
}

/** `RUN command` as the image runs it: `/bin/sh -c command` in the stage's working directory. */
function run(command: string, cwd: string, environment: Record<string, string>): void {
  execFileSync('/bin/sh', ['-c', command], {
    cwd,
    env: stageEnvironment(environment),
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** `COPY --from=build /app/x y`: a folder's content into `y`, a file into `y` or into folder `y/`. */
function copyFromBuild(sources: string[], destination: string): void {
  for (const source of sources) {
    const from = join(buildDir, source.replace(new RegExp(`^${APP}/?`), ''));
    if (!existsSync(from)) throw new Error(`COPY --from=build ${source}: the build made no such file`);
    const to =
      destination.endsWith('/') && !lstatSync(from).isDirectory()
        ? join(appDir, destination, basename(from))
        : join(appDir, destination);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true });
  }
}

/** The build context: what git tracks or would add (not ignored), less what .dockerignore drops. */
function copyBuildContext(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(ROOT, path)));
  const files = ignore()
    .add(readFileSync(join(ROOT, '.dockerignore'), 'utf8'))
    .filter([...new Set(listed)]);
  for (const file of files) {
    mkdirSync(dirname(join(buildDir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(buildDir, file));
  }
  return files;
}

/**
 * The checkout's installed packages, hard-linked into the build copy, so the build stage's
 * `npm install` finds them in place rather than unpacking 900 MB again (most of this test's time
 * on a busy machine). What it proves is unchanged: the install runs on the copied package files
 * and lockfile alone, and a clean install of them is what CI's own install of a fresh clone does.
 * Caches that tools write into (Vite's) are not linked: a write there would reach the checkout.
 */
function linkInstalledPackages(): void {
  for (const folder of ['', 'api', 'workers', 'web-public', 'web-backoffice', 'test']) {
    const modules = join(ROOT, folder, 'node_modules');
    if (!existsSync(modules)) continue;
    execFileSync('cp', ['-al', modules, join(buildDir, folder, 'node_modules')]);
    for (const cache of ['.vite', '.cache']) {
      rmSync(join(buildDir, folder, 'node_modules', cache), { recursive: true, force: true });
    }
  }
}

/** Replays a final stage's COPY and RUN steps into the app folder (a RUN already run is skipped). */
function replayFinalStage(file: ParsedDockerfile, done: Set<string>): void {
  for (const step of file.final.steps) {
    if (step.kind === 'copy') {
      if (step.plain || step.copy.from !== 'build')
        throw new Error(`${file.file}: a COPY not from the build stage`);
      copyFromBuild(step.copy.sources, step.copy.destination);
    } else if (!done.has(step.command)) {
      run(step.command, appDir, file.final.environment);
      done.add(step.command);
    }
  }
}

/** Starts an image's CMD (`node ...`) from the app folder, as the image's user would. */
function startCommand(command: string[], variables: Record<string, string>): RunningProcess {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`an image command that is not node: ${command.join(' ')}`);
  const running = startNode(args, variables, appDir);
  started.push(running);
  return running;
}

/** Waits for `url` to answer 200; names the process's output when it does not. */
async function answers(url: string, running: RunningProcess): Promise<Response> {
  return eventually(
    async () => {
      if (running.child.exitCode !== null)
        throw new Error(`exited with ${running.child.exitCode}: ${running.output()}`);
      const response = await fetch(url);
      return response.status === 200 && response;
    },
    `${url} to answer 200 (output so far: ${running.output().slice(-2000)})`,
    60_000,
  );
}

describe('the production layout', () => {
  it('builds, installs production dependencies only and runs the API, the workers and the site server', async () => {
    const files = dockerfiles();
    const byName = Object.fromEntries(files.map((file) => [basename(file.file, '.Dockerfile'), file]));

    const context = copyBuildContext();
    expect(context).toContain('docker/production-layout.sh');
    expect(context.some((file) => file.startsWith('test/') && file !== 'test/package.json')).toBe(false);

    // The build stage, as every image runs it.
    linkInstalledPackages();
    for (const command of files[0]!.stages[0]!.runs) run(command, buildDir, {});

    // The final stages of the three images into one folder: the same install, each one's files.
    mkdirSync(appDir, { recursive: true });
    const done = new Set<string>();
    for (const file of files) replayFinalStage(file, done);

    for (const name of DEV_PACKAGES) {
      expect({ name, installed: existsSync(join(appDir, 'node_modules', name)) }).toEqual({
        name,
        installed: false,
      });
    }
    // The workspaces the processes import are links to their folders, whose dist is the built output.
    expect(lstatSync(join(appDir, 'node_modules/@offers/api')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(appDir, 'api/src'))).toBe(false);
    expect(existsSync(join(appDir, 'web-backoffice/dist/index.html'))).toBe(true);

    // The migrations one-off, as the production compose file runs it, on a database of its own.
    const compose = load(readFileSync(join(ROOT, 'compose.production.yml'), 'utf8'), {
      schema: CORE_SCHEMA.withTags(mergeTag),
    }) as { services: Record<string, { command: string[] }> };
    const [apiPort, apiOperations, workersOperations, webPort, webOperations] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const settings: Record<string, string> = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `test-production-layout-${randomBytes(4).toString('hex')}`,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      // Nothing is mailed here; production only demands an SMTP server's address.
      SMTP_URL: 'smtp://127.0.0.1:2525',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      API_OPERATIONS_PORT: String(apiOperations),
      WORKERS_OPERATIONS_PORT: String(workersOperations),
      WEB_HOST: '127.0.0.1',
      WEB_PORT: String(webPort),
      WEB_OPERATIONS_PORT: String(webOperations),
      API_UPSTREAM_URL: `http://127.0.0.1:${apiPort}`,
      PUBLIC_URL: `http://127.0.0.1:${webPort}`,
    };
    const migrate = startCommand(compose.services.migrate!.command, settings);
    const migrated = await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve));
    expect({ migrated, output: migrate.output() }).toMatchObject({
      migrated: 0,
      output: expect.stringMatching(/applied \d+ migration/),
    });

    const api = startCommand(byName.api!.final.command!, settings);
    const workers = startCommand(byName.workers!.final.command!, settings);
    const site = startCommand(byName['web-public']!.final.command!, settings);

    for (const [running, port] of [
      [api, apiOperations],
      [workers, workersOperations],
      [site, webOperations],
    ] as const) {
      const live = await answers(`http://127.0.0.1:${port}/health/live`, running);
      expect(await live.json()).toMatchObject({ status: 'live' });
      await answers(`http://127.0.0.1:${port}/health/ready`, running);
    }
    // The site renders its home page and forwards /api to the API.
    const home = await answers(`http://127.0.0.1:${webPort}/`, site);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect(await home.text()).toMatch(/<div id="root">\s*<\w/);
    await answers(`http://127.0.0.1:${webPort}/api/health/live`, site);
    // The back-office's static build, served by the site under its own path.
    const backOffice = await answers(`http://127.0.0.1:${webPort}/back-office/`, site);
    expect(await backOffice.text()).toContain('/back-office/assets/');
  }, 1_800_000);
});
