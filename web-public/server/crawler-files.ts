import { CATEGORY_SLUGS, SITE_LANGUAGES, type SiteLanguage } from '@offers/api/rules';
import { type CouponListings, storeAddresses } from '@offers/api/site';
import type { DataSource } from 'typeorm';

/** Most addresses one sitemap file may list (the sitemaps protocol's limit). */
export const SITEMAP_LIMIT = 50_000;

/** The pages anyone may find, in every language: what the sitemap lists. */
const STATIC_PAGES = [
  '/',
  '/coupons',
  '/categories',
  '/top-offers',
  '/offers',
  '/stores',
  '/faq',
  '/terms',
  '/about',
  '/privacy',
  '/careers',
  '/contact',
];

function localePath(lang: SiteLanguage, path: string): string {
  if (lang === 'en') return path;
  return path === '/' ? `/${lang}/` : `/${lang}${path}`;
}

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** robots.txt: crawlers stay out of the user area, the API and search results; the sitemap's address. */
export function robotsTxt(publicUrl: string): string {
  const lines = ['User-agent: *', 'Allow: /'];
  for (const lang of SITE_LANGUAGES) {
    const prefix = lang === 'en' ? '' : `/${lang}`;
    for (const page of ['/account', '/sign-in', '/register', '/forgot-password', '/reset-password']) {
      lines.push(`Disallow: ${prefix}${page}`);
    }
  }
  lines.push(
    'Disallow: /api/',
    'Disallow: /*?q=',
    'Disallow: /*&q=',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  );
  return lines.join('\n');
}

interface SitemapEntry {
  path: string;
  lastmod?: string;
}

/** Every page worth finding (static pages, the eight categories, every store), with when it last changed. */
export async function sitemapEntries(
  dataSource: DataSource,
  listings: CouponListings,
): Promise<SitemapEntry[]> {
  const [categories, approvals, stores] = await Promise.all([
    listings.categories(),
    listings.lastApprovals(),
    storeAddresses(dataSource),
  ]);
  const idOf = new Map(categories.map((category) => [category.name.toLowerCase(), category.id]));
  const listingPages = new Set(['/', '/coupons', '/categories', '/top-offers', '/offers']);
  const storesChanged = stores
    .map((store) => store.updatedAt)
    .sort()
    .at(-1);
  return [
    ...STATIC_PAGES.map((path) => ({
      path,
      lastmod: listingPages.has(path) ? approvals.overall : path === '/stores' ? storesChanged : undefined,
    })),
    ...CATEGORY_SLUGS.map(({ name, slug }) => ({
      path: `/coupons/${slug}`,
      lastmod: approvals.byCategory.get(idOf.get(name.toLowerCase()) ?? 0),
    })),
    ...stores.map((store) => ({ path: `/store/${store.slug}`, lastmod: store.updatedAt })),
  ];
}

/**
 * The sitemap: each page in each language, with its other languages as alternates. Past `limit`
 * addresses, `sitemap.xml` becomes an index of `/sitemaps/<n>.xml` files of at most `limit` each.
 */
export function sitemapFiles(entries: SitemapEntry[], publicUrl: string, limit = SITEMAP_LIMIT) {
  const urls = entries.flatMap((entry) =>
    SITE_LANGUAGES.map((lang) => {
      const alternates = [
        ...SITE_LANGUAGES.map((other) => [other, other] as const),
        ['x-default', 'en'] as const,
      ]
        .map(
          ([hreflang, other]) =>
            `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${xml(publicUrl + localePath(other, entry.path))}"/>`,
        )
        .join('');
      const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : '';
      return `<url><loc>${xml(publicUrl + localePath(lang, entry.path))}</loc>${lastmod}${alternates}</url>`;
    }),
  );
  const urlset = (part: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${part.join('\n')}\n</urlset>\n`;
  if (urls.length <= limit) return { index: urlset(urls), parts: [] as string[] };
  const parts: string[] = [];
  for (let start = 0; start < urls.length; start += limit)
    parts.push(urlset(urls.slice(start, start + limit)));
  const lastmod = entries
    .map((entry) => entry.lastmod ?? '')
    .sort()
    .at(-1);
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts
    .map(
      (_, n) =>
        `<sitemap><loc>${xml(`${publicUrl}/sitemaps/${n + 1}.xml`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`,
    )
    .join('\n')}\n</sitemapindex>\n`;
  return { index, parts };
}
