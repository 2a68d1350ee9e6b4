/**
 * The address a click-out sends the visitor to: a stored URL (the merchant's, or a feed coupon's
 * tracking link) with the click id in the sub-id parameter (replacing one the URL already names),
 * its other parameters and its fragment kept. Null for a URL that is not an absolute http(s)
 * address, so nothing but a web page stored for the coupon is ever a target.
 */
export function merchantLink(storedUrl: string | null, subIdParam: string, clickId: string): string | null {
  if (!storedUrl || !URL.canParse(storedUrl)) return null;
  const url = new URL(storedUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set(subIdParam, clickId);
  return url.href;
}
