import { useLocaleState } from 'react-admin';

/**
 * The back-office's language as India writes it: en-IN (25/11/2026, not the US 11/25/2026),
 * hi-IN, te-IN. For every date and number the back-office formats.
 */
export function useIndianLocale(): string {
  const [locale] = useLocaleState();
  return `${locale}-IN`;
}
