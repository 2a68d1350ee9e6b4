import { fetchUtils, HttpError } from 'react-admin';

/** The API's XSRF cookie (readable on purpose), echoed on every unsafe request. */
export function xsrfToken(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function needsXsrf(method: string | undefined): boolean {
  return !SAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

/**
 * The API answers 400 with `errors: {field: [messages]}`; react-admin puts `body.errors` on the
 * form's fields and expects one text per field.
 */
export function withFieldErrors(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  const errors = (error.body as { errors?: Record<string, unknown> } | undefined)?.errors;
  if (!errors || typeof errors !== 'object') return error;
  const flat = Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [
      field,
      Array.isArray(messages) ? messages.join(' ') : String(messages),
    ]),
  );
  return new HttpError(error.message, error.status, { ...error.body, errors: flat });
}

/** fetchJson with the session cookie and the XSRF header; errors carry the API's body. */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const token = xsrfToken();
  if (needsXsrf(options.method) && token) headers.set('X-XSRF-TOKEN', token);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers, credentials: 'include' });
  } catch (error) {
    throw withFieldErrors(error);
  }
}
