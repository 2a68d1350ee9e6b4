import rosetta from 'rosetta';
import type { CouponPage, Home, Store, StoreList } from './api';
import { type Category, isMediaUrl } from './api';
import { CONTENT_WIDTH, imageSources, STORE_LOGO_SIZES } from './components/Img';
import { formatCashbackRate } from './formats';
import { CATEGORY_SLUGS, couponTextIn } from './forms/rules';
import { LANGUAGES, pageTitle, textIn, textsOf } from './i18n';
import { bannersUrl, CATEGORIES_URL, LISTING_PAGES, listingState, listingUrl } from './listing';
import descriptionsEn from './locales/descriptions/en.json';
import descriptionsHi from './locales/descriptions/hi.json';
import descriptionsTe from './locales/descriptions/te.json';
import { HOME_URL, type PageData, STORES_URL, storeCouponsUrl, storeUrl } from './page-data';
import { loadedInfoTexts } from './pages/info/texts';
import { isPrivate, type PageMatch } from './routes';
import { type Language, localePath, SITE_LANGUAGES } from './site';

/**
 * What a page's `<head>` tells search engines and link previews: title, description, canonical
 * address with its other languages, Open Graph and Twitter cards, and structured data (JSON-LD).
 */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute; absent on pages that should not be indexed. */
  canonical?: string;
  alternates: Array<{ lang: string; href: string }>;
  image: string;
  robots?: string;
  locale: string;
  jsonLd: object[];
  /** The page's largest image above the fold, fetched first. */
  preloadImage?: { href: string; srcset?: string; sizes?: string };
}

const DESCRIPTION_MAX = 160;

/**
 * The pages' descriptions, which only the server writes (into `<head>`): kept out of the texts
 * the browser loads, whose home page has a budget.
 */
const DESCRIPTIONS = rosetta<typeof descriptionsEn>({
  en: descriptionsEn,
  hi: descriptionsHi,
  te: descriptionsTe,
});

function clip(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** An image address made absolute, at the width link previews show (1200 px). */
function absoluteImage(publicUrl: string, url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  if (isMediaUrl(url)) return `${publicUrl}${url}?w=1280`;
  return /^https?:\/\//.test(url) ? url : undefined;
}

export function headFor(options: {
  match: PageMatch;
  /** The address within its language, without the query. */
  path: string;
  search: URLSearchParams;
  lang: Language;
  data: PageData;
  publicUrl: string;
}): PageHead {
  const { match, path, search, lang, data, publicUrl } = options;
  const { t, msg } = textsOf(lang);
  const describe = (key: keyof typeof descriptionsEn, params?: Record<string, string | number>) =>
    textIn(DESCRIPTIONS, lang, key, params);
  const brand = t('brand');
  const url = (language: Language, within = path) => `${publicUrl}${localePath(language, within)}`;
  const home = data[HOME_URL] as Home | undefined;
  let image = absoluteImage(publicUrl, home?.heroes[0]?.imageUrl) ?? `${publicUrl}/og-image.png`;
  let title: string | undefined;
  let description = describe('homeDescription');
  const jsonLd: object[] = [];
  /** The page's main image, asked for before anything else; `sizes` as the page's <img> has it. */
  let firstImage: { url: string | null | undefined; sizes: string } | undefined;
  const crumbs = (trail: Array<[string, string]>) => ({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(([name, within], index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: url(lang, within),
    })),
  });

  switch (match.page) {
    case 'home':
      title = t('seo.homeTitle');
      firstImage = {
        url: [...(home?.heroes ?? [])].sort((a, b) => a.sortOrder - b.sortOrder)[0]?.imageUrl,
        sizes: CONTENT_WIDTH,
      };
      jsonLd.push(
        {
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: brand,
          url: url(lang, '/'),
          inLanguage: LANGUAGES.find((language) => language.code === lang)!.intl,
          potentialAction: {
            '@type': 'SearchAction',
            target: { '@type': 'EntryPoint', urlTemplate: `${url(lang, '/coupons')}?q={search_term_string}` },
            'query-input': 'required name=search_term_string',
          },
        },
        {
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: brand,
          url: `${publicUrl}/`,
          logo: `${publicUrl}/icons/icon-512.png`,
        },
      );
      break;
    case 'listing': {
      const categories = data[CATEGORIES_URL] as Category[] | undefined;
      const state = listingState(match.kind, search, categories, match.categorySlug);
      const listing = data[listingUrl(state, 1)] as CouponPage | undefined;
      const category = CATEGORY_SLUGS.find((entry) => entry.slug === match.categorySlug);
      title = category
        ? t('seo.categoryTitle', { category: msg(category.name) })
        : t(LISTING_PAGES[match.kind].title);
      description = listing?.data.length
        ? describe('listingDescription', {
            count: listing.total,
            titles: listing.data
              .slice(0, 3)
              .map((card) => couponTextIn(card, lang).title)
              .join(', '),
          })
        : describe('listingEmpty');
      const banner = (
        data[bannersUrl(LISTING_PAGES[match.kind].banner)] as Array<{ imageUrl: string | null }>
      )?.[0];
      image = absoluteImage(publicUrl, banner?.imageUrl) ?? image;
      firstImage = { url: banner?.imageUrl, sizes: CONTENT_WIDTH };
      if (category) {
        jsonLd.push(
          crumbs([
            [t('seo.home'), '/'],
            [t('nav.coupons'), '/coupons'],
            [msg(category.name), path],
          ]),
        );
      }
      break;
    }
    case 'store': {
      const store = data[storeUrl(match.address)] as Store | undefined;
      if (!store) break;
      const coupons = (data[storeCouponsUrl(store.merchantId)] as CouponPage | undefined)?.data ?? [];
      const products = [...store.categories.flatMap((shelf) => shelf.products), ...store.uncategorised];
      title = t('seo.storeTitle', { store: store.storeName });
      description = describe('storeDescription', {
        store: store.storeName,
        coupons: t('stores.count', { count: coupons.length }),
        products: describe('products', { count: products.length }),
        about: store.tagline || store.aboutDescription || '',
      });
      image =
        absoluteImage(publicUrl, store.heroBannerUrl ?? store.logoUrl ?? store.landingBannerUrl) ?? image;
      // The banner when there is one; otherwise the logo is at the top of the page.
      firstImage = store.heroBannerUrl
        ? { url: store.heroBannerUrl, sizes: CONTENT_WIDTH }
        : { url: store.logoUrl, sizes: STORE_LOGO_SIZES };
      const storeAddress = url(lang, `/store/${store.slug}`);
      // schema.org has no cashback type: the store's cashback is one more Offer it makes, in words.
      const cashbackRate = store.cashback && formatCashbackRate(store.cashback.upTo);
      const offers = [
        ...(store.cashback && cashbackRate
          ? [
              {
                '@type': 'Offer',
                name: t('cashback.summary', { rate: cashbackRate }),
                description: describe('storeCashback', {
                  rate: cashbackRate,
                  store: store.storeName,
                  count: store.cashback.confirmDays,
                }),
                category: 'Cashback',
                url: storeAddress,
              },
            ]
          : []),
        ...coupons.map((coupon) => ({
          '@type': 'Offer',
          name: couponTextIn(coupon, lang).title,
          description: couponTextIn(coupon, lang).description,
          url: storeAddress,
          ...(coupon.expiresAt !== null && { validThrough: coupon.expiresAt }),
          ...(coupon.percentage !== null &&
            coupon.percentage > 0 && {
              priceSpecification: {
                '@type': 'UnitPriceSpecification',
                priceCurrency: 'INR',
                description: `${coupon.percentage}%`,
              },
            }),
        })),
      ];
      jsonLd.push(
        crumbs([
          [t('seo.home'), '/'],
          [t('seo.stores'), '/stores'],
          [store.storeName, `/store/${store.slug}`],
        ]),
        {
          '@context': 'https://schema.org',
          '@type': 'Store',
          name: store.storeName,
          url: storeAddress,
          ...(store.logoUrl && { logo: absoluteImage(publicUrl, store.logoUrl) }),
          ...(store.storeAddress && { address: store.storeAddress }),
          ...(offers.length > 0 && { makesOffer: offers }),
        },
        ...products.map((product) => ({
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: product.productName,
          ...(product.brand && { brand: { '@type': 'Brand', name: product.brand } }),
          ...(product.description && { description: product.description }),
          ...(product.images.large || product.images.medium
            ? { image: absoluteImage(publicUrl, product.images.large ?? product.images.medium) }
            : {}),
          offers: {
            '@type': 'Offer',
            price: product.price,
            priceCurrency: 'INR',
            availability: 'https://schema.org/InStock',
            url: product.merchantUrl ?? storeAddress,
          },
        })),
      );
      break;
    }
    case 'stores': {
      title = t('seo.storesTitle');
      description = describe('storesDescription');
      const stores = data[STORES_URL] as StoreList | undefined;
      if (stores?.data.length) {
        description = clip(`${description} ${stores.data.map((store) => store.storeName).join(', ')}`);
      }
      break;
    }
    case 'info': {
      const page = loadedInfoTexts(lang).pages[match.info];
      title = page.title;
      description = page.description;
      break;
    }
    case 'contact':
      title = t('contact.title');
      description = describe('infoDescription', { title });
      break;
    case 'grievance':
      title = t('grievance.title');
      description = describe('infoDescription', { title });
      break;
    case 'register':
      title = t('register.title');
      break;
    case 'signIn':
      title = t('signIn.title');
      break;
    case 'account':
      title = t('account.menu');
      break;
    case 'accountSecurity':
      title = t('password.securityTitle');
      break;
    case 'forgotPassword':
      title = t('password.forgotTitle');
      break;
    case 'resetPassword':
      title = t('password.resetTitle');
      break;
    case 'notFound':
    case 'redirect':
      title = t('notFound.title');
      description = describe('notFoundDescription');
      break;
  }

  const indexable = match.page !== 'notFound' && !isPrivate(match) && !search.has('q');
  return {
    title: pageTitle(brand, title),
    description: clip(description),
    canonical: indexable ? url(lang) : undefined,
    alternates: indexable
      ? [
          ...SITE_LANGUAGES.map((language) => ({ lang: language, href: url(language) })),
          { lang: 'x-default', href: url('en') },
        ]
      : [],
    image,
    robots: indexable ? undefined : 'noindex, follow',
    locale: LANGUAGES.find((language) => language.code === lang)!.intl.replace('-', '_'),
    jsonLd,
    ...(firstImage?.url && { preloadImage: preloadOf(firstImage.url, firstImage.sizes) }),
  };
}

function preloadOf(url: string, imageSizes: string): PageHead['preloadImage'] {
  const { src, srcSet, sizes } = imageSources(url, imageSizes);
  return { href: src, srcset: srcSet, sizes };
}

/** Escapes text for an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON for a `<script>` element: nothing in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
