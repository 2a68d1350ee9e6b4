import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { guardedLookup, isPrivateAddress } from '../infrastructure/http/outbound-addresses.js';
import { IMAGE_RULES } from '../rules/media.js';
import { imageLimit } from './images.js';

export { isPrivateAddress };

export const UNREACHABLE_IMAGE = 'The image at this address could not be fetched.';
export const FORBIDDEN_ADDRESS = 'Images cannot be fetched from this address.';

const FETCH_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;

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
    const lookup = guardedLookup(isForbidden, () => refuse(field, FORBIDDEN_ADDRESS));
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
