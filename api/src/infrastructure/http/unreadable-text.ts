/**
 * Text no field of the product can hold: a NUL character (PostgreSQL refuses it in every text value)
 * or half of a UTF-16 surrogate pair (no character at all: it cannot be written as UTF-8, and
 * validators that encode it, such as `isEmail`'s `encodeURI`, throw). Dependency-free, so the API's
 * request guards and the public site's server check addresses the same way.
 */

/** True when `text` holds a NUL or a lone surrogate. */
export function isUnreadableText(text: string): boolean {
  return text.includes('\u0000') || !(text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Runs of percent-encoded bytes (`%E0%A4%85`): each run decodes to UTF-8 text or is malformed. */
const ENCODED_RUN = /(?:%[0-9a-fA-F]{2})+/g;

/**
 * True when an address as sent (path and query) carries a NUL, literally or as `%00`, or bytes that
 * decode to no UTF-8 text (`%ED%A0%80`, an encoded surrogate; `%FF`). A lone `%` not followed by two
 * hex digits is left to the router, as before: it decodes to nothing here.
 */
export function isUnreadableAddress(url: string): boolean {
  if (url.includes('\u0000')) return true;
  if (!url.includes('%')) return false;
  for (const [run] of url.matchAll(ENCODED_RUN)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      return true;
    }
    if (decoded.includes('\u0000')) return true;
  }
  return false;
}

/**
 * True when any string of a parsed body (JSON, a URL-encoded form), value or key, at any depth, is
 * unreadable. The depth is bounded by the JSON parser's own check before this runs.
 */
export function holdsUnreadableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnreadableText(value);
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) return value.some(holdsUnreadableText);
  for (const [key, item] of Object.entries(value)) {
    if (isUnreadableText(key) || holdsUnreadableText(item)) return true;
  }
  return false;
}
