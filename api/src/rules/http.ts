/** Limits and messages of the HTTP surface itself (bodies, lists, cross-site requests). */

/** Deepest nesting of objects and arrays a JSON body may have; no form of the product needs more than 3. */
export const JSON_MAX_DEPTH = 32;

/**
 * react-admin lists: at most `maxPerPage` rows are served per request; a range asking for more
 * than `maxRequestedRows` (react-admin's export asks for 1000) or starting beyond `maxOffset` is
 * refused rather than passed to PostgreSQL. A text filter (a search) has at most `filterTextMax`
 * characters unless its list says otherwise.
 */
export const LIST_LIMITS = {
  maxPerPage: 100,
  maxRequestedRows: 1000,
  maxOffset: 100_000,
  filterTextMax: 100,
} as const;

/**
 * The answer to a request that could not be served in time (a lock held too long, every database
 * connection busy, the request timeout): 503 with `Retry-After`. A command sent again with the same
 * `Idempotency-Key` takes effect at most once, whatever became of the first attempt.
 */
export const SERVICE_BUSY = {
  retryAfterSeconds: 5,
  message: 'The service is busy right now. Please try again in a few seconds.',
} as const;

/**
 * `Idempotency-Key` on commands (POST, PUT, PATCH, DELETE), as in the IETF draft and Stripe's API:
 * the first answer is replayed to a retry with the same key and caller for `replayHours`; the same
 * key with another request is refused. A key still held after `abandonedAfterSeconds` (its process
 * died mid-request) may be used again.
 */
export const IDEMPOTENCY = {
  header: 'idempotency-key',
  maxLength: 255,
  replayHours: 24,
  abandonedAfterSeconds: 300,
  /** Retry-After of the answer to a retry that arrives while the first request runs. */
  retryAfterSeconds: 1,
  messages: {
    invalid: 'The Idempotency-Key header must be 1 to 255 visible characters.',
    differentRequest: 'This Idempotency-Key was already used for a different request.',
    inProgress: 'A request with this Idempotency-Key is still being processed. Please try again shortly.',
  },
} as const;

/**
 * HTTP Strict Transport Security of every answer of the API and of the site's server when the
 * site's address (`PUBLIC_URL`) is https: a year, subdomains included (see docs/decisions.md). Never
 * over plain http, where a browser would pin `localhost` to https for a year.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** The HSTS header for a site at `publicUrl`: sent only when it is served over https. */
export function transportSecurityHeaders(publicUrl: string): Readonly<Record<string, string>> {
  return publicUrl.startsWith('https:') ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {};
}

export const HTTP_MESSAGES = {
  tooDeep: `The JSON body is nested too deeply (at most ${JSON_MAX_DEPTH} levels).`,
  unsupportedBody:
    'Send the body as JSON (application/json), or as multipart/form-data where a file is sent.',
  crossSite: 'Cross-site requests are not accepted.',
  unreadableText:
    'The request holds text no field can take: a NUL character (U+0000), half of a UTF-16 surrogate pair, or bytes that are not UTF-8. Remove it and send the request again.',
  notNull: (field: string) => `${field} cannot be null: leave it out to keep its value.`,
  listBounds: `A range asks for at most ${LIST_LIMITS.maxRequestedRows} rows, starting no further than row ${LIST_LIMITS.maxOffset}.`,
  badFilter: (name: string) => `The filter ${name} is not valid.`,
} as const;
