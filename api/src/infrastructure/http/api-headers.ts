import type { OutgoingHttpHeaders } from 'node:http';

/**
 * Security headers of every JSON answer, built once. A JSON API needs the browser never to guess
 * another type (`nosniff`), no Referer leaked to where its data links, and its
 * media embeddable by both web apps; the policies of HTML documents (CSP and friends) are sent with
 * HTML only ({@link HTML_SECURITY_HEADERS}).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'cross-origin',
});

/**
 * HTTPS remembered (HSTS) is added to the headers above when the site's address is https; see
 * `transportSecurityHeaders` in the rules.
 */

/**
 * Helmet's options for the API's HTML (the OpenAPI page, the queue dashboard, notice pages): both
 * tools ship inline scripts and styles.
 */
export const HTML_SECURITY_HEADERS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
    },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' as const },
  // Sent with every answer, HTML or not, when the site is served over https (configureHttpApp).
  strictTransportSecurity: false,
};

const EXPOSED_HEADERS = ['Content-Range', 'X-Request-Id', 'ETag', 'Retry-After', 'Idempotent-Replayed'];
const ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'X-XSRF-TOKEN',
  'X-Request-Id',
  'Range',
  'Idempotency-Key',
];

/** The web apps may call with their cookies and read these headers; no other origin may. */
export function corsOptions(webAppUrls: readonly string[]) {
  return {
    origin: webAppUrls.map((url) => new URL(url).origin),
    credentials: true,
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: ALLOWED_HEADERS,
  };
}

/**
 * The CORS headers of a simple read, per allowed origin, as the CORS plugin sends them: computed
 * once for the ready answers, which are written before the plugin's hook runs.
 */
export function corsReadHeaders(webAppUrls: readonly string[]): ReadonlyMap<string, OutgoingHttpHeaders> {
  return new Map(
    webAppUrls.map((url) => {
      const origin = new URL(url).origin;
      return [
        origin,
        {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
        },
      ];
    }),
  );
}
