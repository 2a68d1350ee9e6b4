/** Limits and messages of the HTTP surface itself (bodies, lists, cross-site requests). */

/** Deepest nesting of objects and arrays a JSON body may have; no form of the product needs more than 3. */
export const JSON_MAX_DEPTH = 32;

/**
 * react-admin lists: at most `maxPerPage` rows are served per request; a range asking for more
 * than `maxRequestedRows` (react-admin's export asks for 1000) or starting beyond `maxOffset` is
 * refused rather than passed to PostgreSQL.
 */
export const LIST_LIMITS = { maxPerPage: 100, maxRequestedRows: 1000, maxOffset: 100_000 } as const;

export const HTTP_MESSAGES = {
  tooDeep: `The JSON body is nested too deeply (at most ${JSON_MAX_DEPTH} levels).`,
  unsupportedBody:
    'Send the body as JSON (application/json), or as multipart/form-data where a file is sent.',
  crossSite: 'Cross-site requests are not accepted.',
  notNull: (field: string) => `${field} cannot be null: leave it out to keep its value.`,
  listBounds: `A range asks for at most ${LIST_LIMITS.maxRequestedRows} rows, starting no further than row ${LIST_LIMITS.maxOffset}.`,
} as const;
