import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { IMAGE_RULES } from '../rules/media.js';
import { imageLimit } from './images.js';

export const UNREACHABLE_IMAGE = 'The image at this address could not be fetched.';
export const FORBIDDEN_ADDRESS = 'Images cannot be fetched from this address.';

const FETCH_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;

/** This machine's own addresses (a public one included), read once per process. */
let ownAddresses: Set<string> | undefined;
function isOwnAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  ownAddresses ??= new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) =>
        entry && ipaddr.isValid(entry.address.split('%')[0]!) ? [normal(entry.address)] : [],
      ),
  );
  return ownAddresses.has(address.toNormalizedString());
}

const normal = (text: string) => {
  const parsed = ipaddr.parse(text.split('%')[0]!);
  return (
    parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed
  ).toNormalizedString();
};

/** The IPv4 address an IPv6 address carries: mapped, compatible, NAT64 (64:ff9b::/96) or 6to4. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145') {
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  }
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  // IPv4-compatible (::a.b.c.d, deprecated but still routed to that IPv4 address by some stacks).
  if (bytes.slice(0, 12).every((byte) => byte === 0))
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  return undefined;
}

/**
 * Whether a fetched URL may not reach this address: anything but a global unicast address (IANA's
 * special-purpose ranges as ipaddr.js knows them: loopback, private, link-local, carrier NAT,
 * multicast, reserved, documentation...), every IPv6 form that carries an IPv4 address (judged by
 * that address, and refused outright when it is not global), and this machine's own addresses.
 */
export function isPrivateAddress(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (!ipaddr.isValid(bare)) return true;
  const address = ipaddr.parse(bare);
  if (isOwnAddress(address)) return true;
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v6 = address as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried) return true;
  // Global unicast is 2000::/3; anything else (and the special ranges inside it) is not the internet.
  return v6.range() !== 'unicast' || !v6.match(ipaddr.IPv6.parse('2000::'), 3);
}

export interface FetchOptions {
  maxBytes?: number;
  /** Decides which resolved addresses are off limits (private ones by default). */
  isForbidden?: (address: string) => boolean;
}

const refuse = (field: string, message: string) =>
  new BadRequestException({ statusCode: 400, message, errors: { [field]: [message] } });

/**
 * The bytes of an image given the ways older clients send one: a data URL, bare base64, or an
 * http(s) URL to fetch. Whatever arrives is checked as an image afterwards by its bytes.
 */
export async function imageBytesFrom(
  text: string,
  field: string,
  options: FetchOptions = {},
): Promise<Buffer> {
  const value = text.trim();
  if (/^https?:\/\//i.test(value)) return fetchImage(value, field, options);
  const base64 = /^data:[\w.+/-]*(;[\w=.+-]+)*;base64,/i.test(value)
    ? value.slice(value.indexOf(',') + 1)
    : value;
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(base64)) throw refuse(field, IMAGE_RULES.notImage);
  return Buffer.from(base64.replace(/\s/g, ''), 'base64');
}

/**
 * Fetches an image over http(s), following at most three redirects. Every connection is checked
 * after name resolution (so a name that points inside the network is refused too), the body is
 * size-limited, and the whole fetch (names, connections, redirects and every byte of the body)
 * has one deadline: a server that drips a byte a second is cut off when it passes.
 */
export async function fetchImage(url: string, field: string, options: FetchOptions = {}): Promise<Buffer> {
  const isForbidden = options.isForbidden ?? isPrivateAddress;
  const maxBytes = options.maxBytes ?? imageLimit().bytes;
  const deadline = Date.now() + FETCH_TIMEOUT_MS;
  let current = new URL(url);
  for (let redirect = 0; redirect <= MAX_REDIRECTS; redirect += 1) {
    if (!['http:', 'https:'].includes(current.protocol)) throw refuse(field, FORBIDDEN_ADDRESS);
    const host = current.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isForbidden(host)) throw refuse(field, FORBIDDEN_ADDRESS);
    const answer = await get(current, field, isForbidden, maxBytes, deadline);
    if (answer.location === undefined) return answer.body!;
    current = new URL(answer.location, current);
  }
  throw refuse(field, UNREACHABLE_IMAGE);
}

function get(
  url: URL,
  field: string,
  isForbidden: (address: string) => boolean,
  maxBytes: number,
  deadline: number,
): Promise<{ location?: string; body?: Buffer }> {
  let timer: NodeJS.Timeout | undefined;
  return new Promise<{ location?: string; body?: Buffer }>((resolve, reject) => {
    type LookupCallback = (
      error: Error | null,
      address?: string | dns.LookupAddress[],
      family?: number,
    ) => void;
    const lookup = (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback) =>
      dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error);
        if (addresses.some(({ address }) => isForbidden(address)))
          return callback(refuse(field, FORBIDDEN_ADDRESS));
        return lookupOptions.all
          ? callback(null, addresses)
          : callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { lookup: lookup as never }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return resolve({ location: response.headers.location });
      }
      if (status !== 200) {
        response.resume();
        return reject(refuse(field, UNREACHABLE_IMAGE));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy();
          reject(new PayloadTooLargeException({ statusCode: 413, message: imageLimit().message }));
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ body: Buffer.concat(chunks) }));
      response.on('error', () => reject(refuse(field, UNREACHABLE_IMAGE)));
    });
    // Not the socket's idle timeout (each dripped byte would reset it): one timer for the deadline.
    timer = setTimeout(
      () => {
        request.destroy();
        reject(refuse(field, UNREACHABLE_IMAGE));
      },
      Math.max(1, deadline - Date.now()),
    );
    request.on('error', (error) =>
      reject(error instanceof BadRequestException ? error : refuse(field, UNREACHABLE_IMAGE)),
    );
  }).finally(() => clearTimeout(timer));
}

/**
 * Takes an image sent as text in a form field (data URL, base64 or URL) out of the fields and
 * returns its bytes; undefined when the field is absent or empty.
 */
export async function takeTextImage(
  fields: Record<string, unknown>,
  field: string,
): Promise<Buffer | undefined> {
  const value = fields[field];
  delete fields[field];
  // The older client sent the text "null" for "no image".
  if (value === undefined || value === null || value === '' || value === 'null') return undefined;
  if (typeof value !== 'string') throw refuse(field, IMAGE_RULES.notImage);
  return imageBytesFrom(value, field);
}
