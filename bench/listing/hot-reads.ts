/**
 * Hot reads measured with wrk (when installed: `apt-get install wrk`), the API's in the listing
 * benchmark and the rendered pages of the site's server in the site benchmark: each read's bytes
 * are fetched from the server once, a bare `node:http` server is started with those bytes, and
 * both are loaded in alternating rounds, each server pinned to core 0 and wrk to core 1 (taskset),
 * so that server and load generator never share a core. The figure of each is the median of the
 * rounds; the ratio is the server's over the bare server's.
 */
import { execFile, execFileSync } from 'node:child_process';
import { get } from 'node:http';
import { promisify } from 'node:util';
import { median } from '../shared.js';
import type { BareServerSetup } from './bare-server.js';
import { ServerProcess } from './children.js';

const run = promisify(execFile);

export interface HotRead {
  label: string;
  path: string;
  /** Request headers, e.g. the `accept-encoding` of a browser; the bare server answers with the same bytes. */
  headers?: Record<string, string>;
}

export interface HotReadResult {
  label: string;
  path: string;
  bytes: number;
  server: { perSecond: number; p99Ms: number };
  bare: { perSecond: number; p99Ms: number };
  ratio: number;
}

/** Whether a command is on the PATH. */
function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const wrkInstalled = (): boolean => installed('wrk') && installed('taskset');

/** Pins a process and all its threads to one core. */
export function pin(pid: number | undefined, core: number): void {
  if (pid !== undefined)
    execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

/** wrk's latency figure ("99%   12.34ms") in milliseconds. */
function milliseconds(figure: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(figure);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

async function wrk(url: string, connections: number, seconds: number, headers: Record<string, string> = {}) {
  const headerOptions = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await run(
    'taskset',
    ['-c', '1', 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...headerOptions, url],
    { maxBuffer: 1 << 20 },
  );
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(stdout)?.[1];
  const failures = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1];
  if (failures) throw new Error(`${url}: ${failures} answers were not 2xx`);
  return { perSecond, p99Ms: p99 ? milliseconds(p99) : Number.NaN };
}

async function bareServerFor(
  body: Buffer,
  contentType: string,
  headers: Record<string, string>,
): Promise<{ server: ServerProcess; url: string }> {
  const server = ServerProcess.start(
    'bare server',
    ['--import', '@swc-node/register/esm-register', 'bench/listing/bare-server.ts'],
    {},
    true,
  );
  const setup: BareServerSetup = { body: body.toString('base64'), contentType, headers };
  const { port } = await server.ask<{ port: number }>(setup, 30_000);
  return { server, url: `http://127.0.0.1:${port}/` };
}

/**
 * The bytes of an answer as they travel: node:http rather than fetch, which would undo a
 * `content-encoding` the request asked for.
 */
function readBytes(url: string, headers: Record<string, string>) {
  return new Promise<{ body: Buffer; contentType: string; contentEncoding?: string }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode !== 200)
          return reject(new Error(`GET ${url} answered ${response.statusCode}`));
        resolve({
          body: Buffer.concat(chunks),
          contentType: response.headers['content-type'] ?? 'application/json',
          contentEncoding: response.headers['content-encoding'],
        });
      });
    }).on('error', reject);
  });
}

/** Each read: API and bare server, `rounds` alternating rounds of `seconds` after a warm-up. */
export async function measureHotReads(
  baseUrl: string,
  server: ServerProcess,
  reads: readonly HotRead[],
  options: { connections: number; seconds: number; rounds: number },
): Promise<HotReadResult[]> {
  pin(server.pid, 0);
  const results: HotReadResult[] = [];
  for (const read of reads) {
    const url = `${baseUrl}${read.path}`;
    const headers = read.headers ?? {};
    const { body, contentType, contentEncoding } = await readBytes(url, headers);
    const again = await readBytes(url, headers);
    if (!again.body.equals(body)) throw new Error(`GET ${read.path} answered other bytes the second time`);
    const bare = await bareServerFor(
      body,
      contentType,
      contentEncoding ? { 'content-encoding': contentEncoding } : {},
    );
    pin(bare.server.pid, 0);
    await wrk(url, options.connections, 2, headers);
    await wrk(bare.url, options.connections, 2, headers);
    const serverRounds: Awaited<ReturnType<typeof wrk>>[] = [];
    const bareRounds: Awaited<ReturnType<typeof wrk>>[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      serverRounds.push(await wrk(url, options.connections, options.seconds, headers));
      server.assertRunning();
      bareRounds.push(await wrk(bare.url, options.connections, options.seconds, headers));
    }
    await bare.server.stop();
    const figures = (rounds: typeof serverRounds) => ({
      perSecond: median(rounds.map((r) => r.perSecond)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
    });
    const serverFigures = figures(serverRounds);
    const bareFigures = figures(bareRounds);
    results.push({
      ...read,
      bytes: body.length,
      server: serverFigures,
      bare: bareFigures,
      ratio: serverFigures.perSecond / bareFigures.perSecond,
    });
  }
  return results;
}

/** The table of {@link measureHotReads}, with the target each read's ratio is held to. */
export function hotReadLines(
  results: HotReadResult[],
  target: number,
  connections: number,
  rounds: number,
  names = { reads: 'Hot reads', server: 'API' },
): string[] {
  const whole = (value: number) => Math.round(value).toLocaleString('en-US');
  return [
    '',
    `${names.reads} with wrk (${connections} connections, median of ${rounds} alternating rounds; server on core 0, wrk on core 1):`,
    `  ${'read'.padEnd(34)}${'bytes'.padStart(8)}${`${names.server} req/s`.padStart(11)}${'p99'.padStart(9)}` +
      `${'bare req/s'.padStart(12)}${'p99'.padStart(9)}${'ratio'.padStart(7)}`,
    ...results.map(
      (result) =>
        `  ${`${result.label} ${result.path}`.slice(0, 33).padEnd(34)}${whole(result.bytes).padStart(8)}` +
        `${whole(result.server.perSecond).padStart(11)}${`${result.server.p99Ms.toFixed(1)} ms`.padStart(9)}` +
        `${whole(result.bare.perSecond).padStart(12)}${`${result.bare.p99Ms.toFixed(1)} ms`.padStart(9)}` +
        `${result.ratio.toFixed(2).padStart(7)}${result.ratio >= target ? '' : '  (below target)'}`,
    ),
    `  target: ratio >= ${target} for each read`,
  ];
}
