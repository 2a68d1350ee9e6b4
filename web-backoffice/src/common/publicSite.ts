/**
 * The public site: VITE_PUBLIC_SITE_URL when the build names it; else, for the production build
 * the site's server serves under /back-office/, the same origin; else (the dev server on its own
 * port) the same host on the site's development port.
 */
export const PUBLIC_SITE: string =
  import.meta.env.VITE_PUBLIC_SITE_URL ??
  (import.meta.env.BASE_URL === '/'
    ? `${window.location.protocol}//${window.location.hostname}:5173`
    : window.location.origin);
