import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type FeedCredential,
  FeedError,
  FeedFetchFailed,
  FeedTooLarge,
  FeedUnreadable,
  type FetchFeedOptions,
  feedLimits,
  fetchFeed,
  readFeed,
} from '@offers/api/feeds/formats/index';
import { ConfigurationError, validateEnvironment } from '@offers/api/infrastructure/config/environment';
import { admitadCoupon, fixture, readAll } from './feed-samples.js';

const API_KEY = 'lmd-key-7f3a9c2e51b04d8e';
const PASSWORD = 'p4ss-Wörd-91c2';

let server: Server;
let port: number;
let allowed: FetchFeedOptions;
/** The credentials each path was asked with, as the server saw them. */
const seen = new Map<string, { apiKey?: string; authorization?: string }>();
/** Lets the streaming test's server send the rest of its feed. */
let releaseRest: () => void = () => undefined;

const admitad = readFileSync(fixture('admitad-coupons.json'));
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));

function serve(request: IncomingMessage, response: ServerResponse) {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  seen.set(path, {
    apiKey: request.headers['x-api-key'] as string | undefined,
    authorization: request.headers.authorization,
  });
  const json = { 'content-type': 'application/json' };
  switch (path) {
    case '/admitad.json':
      return response.writeHead(200, json).end(admitad);
    case '/admitad-encoded.json':
      return response.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end(gzipSync(admitad));
    case '/admitad.json.gz':
      return response.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(admitad));
    case '/keyed.json':
      if (request.headers['x-api-key'] !== API_KEY) return response.writeHead(401).end('{"error":"bad key"}');
      return response.writeHead(200, json).end(admitad);
    case '/basic.json': {
      const expected = `Basic ${Buffer.from(`network-user:${PASSWORD}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return response.writeHead(403).end();
      return response.writeHead(200, json).end(admitad);
    }
    case '/error':
      return response.writeHead(500).end('Internal Server Error');
    case '/maintenance':
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html>Down for maintenance</html>');
    case '/big':
      return response.writeHead(200, json).end(Buffer.alloc(3 * 1024 * 1024, ' '));
    case '/bomb-encoded':
      return response.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    case '/bomb.gz':
      return response.writeHead(200, { 'content-type': 'application/gzip' }).end(bomb);
    case '/corrupt-encoded':
      return response.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
    case '/moved':
      return response.writeHead(302, { location: '/admitad.json' }).end();
    case '/moved-elsewhere':
      // The same server under another name: another origin, which gets no credential.
      return response.writeHead(302, { location: `http://localhost:${port}/keyless.json` }).end();
    case '/keyless.json':
      return response.writeHead(200, json).end(admitad);
    case '/moved-inside':
      return response.writeHead(302, { location: `http://127.0.0.2:${port}/admitad.json` }).end();
    case '/loop':
      return response.writeHead(302, { location: '/loop' }).end();
    case '/cut':
      response.writeHead(200, { ...json, 'content-length': String(admitad.length) });
      response.write(admitad.subarray(0, 200));
      return setImmediate(() => response.socket?.destroy());
    case '/silent':
      // Headers, then nothing: the idle timeout ends it.
      response.writeHead(200, json);
      return response.write('{"results":[');
    case '/streaming': {
      // The first rows, then the rest only once the test has read a row.
      response.writeHead(200, json);
      response.write(`{"results":[${JSON.stringify(admitadCoupon(1))},${JSON.stringify(admitadCoupon(2))}`);
      releaseRest = () => response.end(`,${JSON.stringify(admitadCoupon(3))}]}`);
      return;
    }
  }
  response.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer(serve);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
  allowed = { allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`] };
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

const url = (path: string) => `http://127.0.0.1:${port}${path}`;

/** The rows of a fetched feed. */
const fetchRows = async (path: string, credential: FeedCredential | null = null, options = allowed) =>
  readAll(await fetchFeed(url(path), credential, options), 'admitad-json', undefined, {
    maxBytes: options.maxBytes,
  });

/** The error a fetch, or the read of what it fetched, ends with. */
async function failure(
  path: string,
  credential: FeedCredential | null = null,
  options = allowed,
): Promise<FeedError> {
  try {
    await fetchRows(path, credential, options);
  } catch (error) {
    if (error instanceof FeedError) return error;
    throw error;
  }
  throw new Error(`${path} was fetched and read without an error`);
}

/** Runs `work` with every line the process writes to stdout and stderr kept aside. */
async function withOutput<T>(work: () => Promise<T>): Promise<{ result: T; output: string }> {
  const written: string[] = [];
  const original = { out: process.stdout.write, err: process.stderr.write };
  const keep = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  process.stdout.write = keep as typeof process.stdout.write;
  process.stderr.write = keep as typeof process.stderr.write;
  try {
    return { result: await work(), output: written.join('') };
  } finally {
    process.stdout.write = original.out;
    process.stderr.write = original.err;
  }
}

describe('fetching a feed from an allowed host', () => {
  it('reads it over http, as plain JSON, with Content-Encoding gzip, or as a .gz body', async () => {
    const plain = await fetchRows('/admitad.json');
    expect(plain.rows.map((row) => row.rowId)).toEqual(['481201', '481201', '481202', '481305', '479990']);
    expect(await fetchRows('/admitad-encoded.json')).toEqual(plain);
    expect(await fetchRows('/admitad.json.gz')).toEqual(plain);
    expect(await fetchRows('/moved')).toEqual(plain);
  });

  it('hands rows over while the body is still arriving', async () => {
    const body = await fetchFeed(url('/streaming'), null, allowed);
    const ids: string[] = [];
    for await (const entry of readFeed(body, 'admitad-json')) {
      if ('reason' in entry) throw new Error(entry.reason);
      ids.push(entry.rowId);
      // The server sends the last row only now: the first ones were read before the body ended.
      if (ids.length === 1) releaseRest();
    }
    expect(ids).toEqual(['500001', '500002', '500003']);
  });

  it('takes its limits from the FEED_* settings', () => {
    const environment = validateEnvironment({
      FEED_ALLOWED_HOSTS: '127.0.0.1:8089, feeds.local',
      FEED_MAX_MB: '50',
      FEED_IDLE_TIMEOUT_MS: '120000',
    });
    expect(feedLimits(environment)).toEqual({
      allowedHosts: ['127.0.0.1:8089', 'feeds.local'],
      maxBytes: 50 * 1024 * 1024,
      connectTimeoutMs: 30_000,
      idleTimeoutMs: 120_000,
    });
    expect(feedLimits(validateEnvironment({})).allowedHosts).toEqual([]);
    expect(() => validateEnvironment({ FEED_ALLOWED_HOSTS: 'http://127.0.0.1:8089/' })).toThrow(
      ConfigurationError,
    );
  });
});

describe('credentials', () => {
  it('are sent as a header or as basic authentication, and kept out of errors and output', async () => {
    const { result, output } = await withOutput(async () => {
      const keyed = await fetchRows('/keyed.json', { kind: 'header', name: 'X-Api-Key', value: API_KEY });
      const basic = await fetchRows('/basic.json', {
        kind: 'basic',
        username: 'network-user',
        password: PASSWORD,
      });
      const wrongKey = await failure('/keyed.json', {
        kind: 'header',
        name: 'X-Api-Key',
        value: `${API_KEY}-old`,
      });
      const wrongPassword = await failure('/basic.json', {
        kind: 'basic',
        username: 'network-user',
        password: `${PASSWORD}!`,
      });
      const badHeader = await failure('/keyed.json', {
        kind: 'header',
        name: 'X-Api-Key',
        value: `${API_KEY}\r\nX: y`,
      });
      return { keyed, basic, errors: [wrongKey, wrongPassword, badHeader] };
    });

    expect(result.keyed.rows).toHaveLength(5);
    expect(result.basic.rows).toHaveLength(5);
    expect(seen.get('/keyed.json')?.apiKey).toBe(`${API_KEY}-old`);
    expect(result.errors.map((error) => [error.constructor, error.message])).toEqual([
      [FeedFetchFailed, `The feed server 127.0.0.1:${port} refused the source's credential (HTTP 401).`],
      [FeedFetchFailed, `The feed server 127.0.0.1:${port} refused the source's credential (HTTP 403).`],
      [FeedFetchFailed, "The source's credential cannot be sent as an HTTP header."],
    ]);
    const secrets = [API_KEY, PASSWORD, Buffer.from(`network-user:${PASSWORD}`).toString('base64')];
    for (const error of result.errors) {
      const everything = `${error.message} ${error.stack} ${JSON.stringify(error)} ${String(error.cause ?? '')}`;
      for (const secret of secrets) expect(everything).not.toContain(secret);
    }
    for (const secret of secrets) expect(output).not.toContain(secret);
  });

  it('go only to the origin they were given for, not where it redirects', async () => {
    const { rows } = await fetchRows('/moved-elsewhere', {
      kind: 'header',
      name: 'X-Api-Key',
      value: API_KEY,
    });
    expect(rows).toHaveLength(5);
    expect(seen.get('/moved-elsewhere')?.apiKey).toBe(API_KEY);
    expect(seen.get('/keyless.json')).toEqual({ apiKey: undefined, authorization: undefined });
  });
});

describe('addresses', () => {
  it.each([
    ['this machine over https', 'https://127.0.0.1:9/feed.json', 'not a public address'],
    ['a private network', 'https://10.1.2.3/feed.json', 'not a public address'],
    ['the metadata service', 'https://169.254.169.254/latest/', 'not a public address'],
    ['an IPv4 address inside IPv6', 'https://[::ffff:127.0.0.1]/feed.json', 'not a public address'],
    ['a name for this machine', 'https://localhost:9/feed.json', 'not a public address'],
    ['plain http to a public host', 'http://feeds.example.com/feed.json', 'https only'],
    ['another scheme', 'ftp://feeds.example.com/feed.json', 'https only'],
    ['no address at all', 'not a url', 'not a valid URL'],
  ])('refuses %s', async (_name, address, words) => {
    const error = await fetchFeed(address, null, {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FeedFetchFailed);
    expect((error as Error).message).toContain(words);
  });

  it('refuses this machine unless it is an allowed host, and a redirect inside the network', async () => {
    // Allowed over http on its port only.
    const otherPort = await failure('/admitad.json', null, { allowedHosts: [`127.0.0.1:${port + 1}`] });
    expect(otherPort.message).toContain('https only');
    const inside = await failure('/moved-inside');
    expect(inside).toBeInstanceOf(FeedFetchFailed);
    expect(inside.message).toBe(`Feeds are fetched over https only: http://127.0.0.2:${port} is refused.`);
    const loop = await failure('/loop');
    expect(loop.message).toBe('The feed address redirects more than 3 times.');
  });
});

describe('a fetch that fails', () => {
  it.each([
    ['an HTTP error', '/error', FeedFetchFailed, `The feed server 127.0.0.1:PORT answered HTTP 500.`],
    ['a missing feed', '/nowhere', FeedFetchFailed, `The feed server 127.0.0.1:PORT answered HTTP 404.`],
    ['a body that is not the format', '/maintenance', FeedUnreadable, 'The feed is not valid JSON.'],
    [
      'a body cut off',
      '/cut',
      FeedFetchFailed,
      'The feed server 127.0.0.1:PORT closed the connection before the feed ended.',
    ],
    [
      'a body not in its Content-Encoding',
      '/corrupt-encoded',
      FeedUnreadable,
      'The feed server 127.0.0.1:PORT sent a body that is not valid gzip.',
    ],
  ])('throws for %s', async (_name, path, type, message) => {
    const error = await failure(path);
    expect(error).toBeInstanceOf(type);
    expect(error.message).toBe(message.replace('PORT', String(port)));
  });

  it('throws when the server goes silent', async () => {
    const error = await failure('/silent', null, { ...allowed, idleTimeoutMs: 300 });
    expect(error).toBeInstanceOf(FeedFetchFailed);
    expect(error.message).toBe(`The feed server 127.0.0.1:${port} sent nothing for 0.3 s.`);
  });

  it('throws when nothing answers in time', async () => {
    // A listening socket that never answers.
    const mute = createServer(() => undefined);
    mute.listen(0, '127.0.0.1');
    await once(mute, 'listening');
    const mutePort = (mute.address() as { port: number }).port;
    const error = await fetchFeed(`http://127.0.0.1:${mutePort}/feed.json`, null, {
      allowedHosts: [`127.0.0.1:${mutePort}`],
      connectTimeoutMs: 300,
    }).catch((thrown: unknown) => thrown);
    mute.closeAllConnections();
    mute.close();
    expect(error).toBeInstanceOf(FeedFetchFailed);
    expect((error as Error).message).toBe(
      `The feed server 127.0.0.1:${mutePort} did not answer within 0.3 s.`,
    );
  });
});

describe('the size limit', () => {
  const limited = () => ({ ...allowed, maxBytes: 1024 * 1024 });

  it.each([
    ['a plain body', '/big'],
    ['a gzip bomb served with Content-Encoding', '/bomb-encoded'],
    ['a gzip bomb served as a .gz file', '/bomb.gz'],
  ])('stops %s at the limit', async (_name, path) => {
    const error = await failure(path, null, limited());
    expect(error).toBeInstanceOf(FeedTooLarge);
    expect(error.message).toBe('The feed is larger than 1 MB.');
  });

  it('stops before reading the rest of the body', async () => {
    const body: Readable = await fetchFeed(url('/bomb-encoded'), null, limited());
    let bytes = 0;
    const error = await (async () => {
      for await (const chunk of body) bytes += (chunk as Buffer).length;
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FeedTooLarge);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
