/** The public site (same host, its own port in development, or VITE_PUBLIC_SITE_URL). */
export const PUBLIC_SITE: string =
  import.meta.env.VITE_PUBLIC_SITE_URL ?? `${window.location.protocol}//${window.location.hostname}:5173`;
