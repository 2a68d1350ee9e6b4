import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Environment } from '../../infrastructure/config/environment.js';
import { guardedLookup, isPrivateAddress } from '../../infrastructure/http/outbound-addresses.js';
import { FEED_FETCH_DEFAULTS } from '../../rules/feeds.js';
import { type FeedCredential, FeedError, FeedFetchFailed, FeedUnreadable, feedTooLarge } from './feed-row.js';

const MEGABYTE = 1024 * 1024;

export interface FetchFeedOptions {
  /**
   * `host:port` entries (FEED_ALLOWED_HOSTS) fetched although they are private addresses, and over
   * plain http too; an entry without a port stands for the scheme's default port.
   */
  allowedHosts?: readonly string[];
  /** Largest body, counted after decompression (FEED_MAX_MB). */
  maxBytes?: number;
  /** From sending the request to the answer's headers (FEED_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** Longest wait for the next bytes while the reader wants them (FEED_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
}

/** The fetch and read limits of the FEED_* settings, for fetchFeed and readFeed alike. */
export function feedLimits(
  environment: Pick<
    Environment,
    'FEED_ALLOWED_HOSTS' | 'FEED_MAX_MB' | 'FEED_CONNECT_TIMEOUT_MS' | 'FEED_IDLE_TIMEOUT_MS'
  >,
): Required<FetchFeedOptions> {
  return {
    allowedHosts: environment.FEED_ALLOWED_HOSTS.split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    maxBytes: environment.FEED_MAX_MB * MEGABYTE,
    connectTimeoutMs: environment.FEED_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: environment.FEED_IDLE_TIMEOUT_MS,
  };
}

const defaultPort = (url: URL) => (url.protocol === 'https:' ? '443' : '80');

/** Whether the URL's host and port are one of the allowed entries. */
function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const target = `${url.hostname.toLowerCase()}:${url.port || defaultPort(url)}`;
  return allowedHosts.some((entry) => {
    const hasPort = /:\d+$/.test(entry.replace(/^\[.*\]/, ''));
    const withPort = hasPort ? entry : `${entry}:${defaultPort(url)}`;
    return withPort.toLowerCase() === target;
  });
}

// A header name as HTTP allows it (RFC 9110 token), and a value without line breaks.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function credentialHeaders(credential: FeedCredential | null): Record<string, string> {
  if (credential === null) return {};
  if (credential.kind === 'basic') {
    const token = Buffer.from(`${credential.username}:${credential.password}`, 'utf8').toString('base64');
    return { authorization: `Basic ${token}` };
  }
  if (!HEADER_NAME.test(credential.name) || !HEADER_VALUE.test(credential.value))
    throw new FeedFetchFailed("The source's credential cannot be sent as an HTTP header.");
  return { [credential.name]: credential.value };
}

/** Network errors in words, naming the host only (the URL's query may hold an API key). */
function unreachable(host: string, error: unknown): FeedError {
  if (error instanceof FeedError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new FeedFetchFailed(`The feed server ${host} is unknown.`);
  if (code === 'ECONNREFUSED') return new FeedFetchFailed(`The feed server ${host} refused the connection.`);
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return new FeedFetchFailed(`The feed server ${host} has no valid certificate.`);
  return new FeedFetchFailed(`The connection to the feed server ${host} failed.`);
}

interface Answer {
  response: http.IncomingMessage;
  request: http.ClientRequest;
}

function request(
  url: URL,
  headers: Record<string, string>,
  options: Required<FetchFeedOptions>,
): Promise<Answer> {
  const host = url.host;
  const allowed = isAllowedHost(url, options.allowedHosts);
  const refused = () =>
    new FeedFetchFailed(`Feeds cannot be fetched from ${host}: it is not a public address.`);
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const sent = client.get(
      url,
      {
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'offers-marketplace-feeds/1',
          ...headers,
        },
        lookup: allowed ? undefined : guardedLookup(isPrivateAddress, refused),
      },
      (response) => {
        clearTimeout(timer);
        resolve({ response, request: sent });
      },
    );
    // Names, connection and the server's first answer: one timer until the headers are in.
    const timer = setTimeout(() => {
      sent.destroy();
      reject(
        new FeedFetchFailed(
          `The feed server ${host} did not answer within ${options.connectTimeoutMs / 1000} s.`,
        ),
      );
    }, options.connectTimeoutMs);
    sent.on('error', (error) => {
      clearTimeout(timer);
      reject(unreachable(host, error));
    });
  });
}

/**
 * Fetches a feed and returns its body as a stream, decoded by its Content-Encoding (gzip, deflate,
 * br); a .gz body is left to readFeed, which knows it by its first bytes.
 *
 * The image fetcher's address rules apply: every address a name resolves to must be public (a
 * name pointing inside the network is refused when the connection is made), except the hosts of
 * FEED_ALLOWED_HOSTS, which may also be fetched over plain http; anything else must be https. At
 * most three redirects are followed, each checked the same way; the credential goes only to the
 * origin it was given for. The body is limited in size (after decompression, so a gzip bomb stops
 * at the limit) and in time: headers within the connect timeout, then never a wait for bytes
 * longer than the idle timeout while the reader is ready for them (a reader busy writing rows
 * does not count against the server). Every failure is a FeedError whose message names the host
 * only; nothing is logged.
 */
export async function fetchFeed(
  url: string,
  credential: FeedCredential | null,
  options: FetchFeedOptions = {},
): Promise<Readable> {
  const settings: Required<FetchFeedOptions> = {
    allowedHosts: options.allowedHosts ?? [],
    maxBytes: options.maxBytes ?? FEED_FETCH_DEFAULTS.maxMegabytes * MEGABYTE,
    connectTimeoutMs: options.connectTimeoutMs ?? FEED_FETCH_DEFAULTS.connectTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? FEED_FETCH_DEFAULTS.idleTimeoutMs,
  };
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FeedFetchFailed('The feed address is not a valid URL.');
  }
  const origin = current.origin;
  const secret = credentialHeaders(credential);

  for (let redirect = 0; redirect <= FEED_FETCH_DEFAULTS.maxRedirects; redirect += 1) {
    const host = current.host;
    const allowed = isAllowedHost(current, settings.allowedHosts);
    if (current.protocol !== 'https:' && !(current.protocol === 'http:' && allowed))
      throw new FeedFetchFailed(
        `Feeds are fetched over https only: ${current.protocol}//${host} is refused.`,
      );
    const bare = current.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && isIP(bare) && isPrivateAddress(bare))
      throw new FeedFetchFailed(`Feeds cannot be fetched from ${host}: it is not a public address.`);

    const { response, request: sent } = await request(
      current,
      current.origin === origin ? secret : {},
      settings,
    );
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      try {
        current = new URL(response.headers.location, current);
      } catch {
        throw new FeedFetchFailed(`The feed server ${host} redirected to an invalid address.`);
      }
      continue;
    }
    if (status !== 200) {
      response.resume();
      sent.destroy();
      throw new FeedFetchFailed(
        status === 401 || status === 403
          ? `The feed server ${host} refused the source's credential (HTTP ${status}).`
          : `The feed server ${host} answered HTTP ${status}.`,
      );
    }
    return Readable.from(body(response, host, settings), { objectMode: false });
  }
  throw new FeedFetchFailed(
    `The feed address redirects more than ${FEED_FETCH_DEFAULTS.maxRedirects} times.`,
  );
}

class IdleTimeout extends Error {}

/** The answer's bytes, decoded, counted and watched for stalls; see fetchFeed. */
async function* body(
  response: http.IncomingMessage,
  host: string,
  settings: Required<FetchFeedOptions>,
): AsyncGenerator<Buffer> {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (encoding !== '' && encoding !== 'identity' && decoder === null) {
    response.destroy();
    throw new FeedUnreadable(
      `The feed server ${host} sent a body in an unknown encoding (${encoding.slice(0, 20)}).`,
    );
  }
  const source: Readable = decoder ?? response;
  if (decoder) pipeline(response, decoder).catch(() => undefined);
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let timer: NodeJS.Timeout | undefined;
  let total = 0;
  try {
    for (;;) {
      timer = setTimeout(() => response.destroy(new IdleTimeout()), settings.idleTimeoutMs);
      const next = await chunks.next();
      clearTimeout(timer);
      if (next.done) break;
      total += next.value.length;
      if (total > settings.maxBytes) throw feedTooLarge(settings.maxBytes);
      yield next.value;
    }
    if (!response.complete)
      throw new FeedFetchFailed(`The feed server ${host} closed the connection before the feed ended.`);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    if (error instanceof IdleTimeout)
      throw new FeedFetchFailed(
        `The feed server ${host} sent nothing for ${settings.idleTimeoutMs / 1000} s.`,
      );
    // zlib's errors (Z_DATA_ERROR...) and brotli's (ERR__ERROR_FORMAT...): the bytes, not the network.
    const code = String((error as { code?: unknown }).code ?? '');
    if (decoder && (code.startsWith('Z_') || code.startsWith('ERR__')))
      throw new FeedUnreadable(`The feed server ${host} sent a body that is not valid ${encoding}.`);
    throw new FeedFetchFailed(`The feed server ${host} closed the connection before the feed ended.`);
  } finally {
    clearTimeout(timer);
    response.destroy();
    decoder?.destroy();
  }
}
