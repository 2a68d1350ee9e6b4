import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, type Banner, type CouponCard as Card, type Category, type CouponPage } from '../api';
import { CouponCard } from '../components/CouponCard';
import { CONTENT_WIDTH, Img, PictureLink } from '../components/Img';
import { CATEGORY_SLUGS, textIn } from '../forms/rules';
import { useI18n, usePageTitle } from '../i18n';
import {
  bannersUrl,
  CATEGORIES_URL,
  LISTING_PAGES,
  listingState,
  listingUrl,
  type Sort,
  waitsForCategories,
} from '../listing';
import { useInitialData } from '../page-data';
import type { ListingKind } from '../routes';

type Listing =
  | { state: 'loading'; coupons: Card[]; total: number }
  | { state: 'loaded'; coupons: Card[]; total: number }
  | { state: 'failed'; coupons: Card[]; total: number };

export default function CouponsPage({ kind, categorySlug }: { kind: ListingKind; categorySlug?: string }) {
  const { t, msg, lang } = useI18n();
  const page = LISTING_PAGES[kind];
  const category = CATEGORY_SLUGS.find((entry) => entry.slug === categorySlug);
  usePageTitle(category ? t('seo.categoryTitle', { category: msg(category.name) }) : t(page.title));
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const renderedCategories = useInitialData<Category[]>(CATEGORIES_URL);
  const [categories, setCategories] = useState<Category[] | undefined>(renderedCategories);
  const { sort, selected, q } = useMemo(
    () => listingState(kind, params, categories, categorySlug),
    [kind, params, categories, categorySlug],
  );
  const firstUrl = listingUrl({ sort, selected, q }, 1);
  const rendered = useInitialData<CouponPage>(firstUrl);
  const [listing, setListing] = useState<Listing>(
    rendered
      ? { state: 'loaded', coupons: rendered.data, total: rendered.total }
      : { state: 'loading', coupons: [], total: 0 },
  );
  const renderedBanners = useInitialData<Banner[]>(bannersUrl(page.banner));
  const [banner, setBanner] = useState<Banner | undefined>(renderedBanners?.[0]);
  const [query, setQuery] = useState(q);
  // On a small screen the search and categories wait behind a button; wider, they are always shown.
  const [filtersOpen, setFiltersOpen] = useState(false);

  useEffect(() => setQuery(q), [q]);

  useEffect(() => {
    if (renderedCategories) return;
    api<Category[]>(CATEGORIES_URL)
      .then(setCategories)
      .catch(() => setCategories([]));
  }, [renderedCategories]);

  useEffect(() => {
    if (renderedBanners) return;
    let live = true;
    api<Banner[]>(bannersUrl(page.banner))
      .then((banners) => live && setBanner(Array.isArray(banners) ? banners[0] : undefined))
      .catch(() => live && setBanner(undefined));
    return () => {
      live = false;
    };
  }, [page.banner, renderedBanners]);

  const filterKey = `${sort}|${selected.join(',')}|${q}`;
  // Pages shown for the current filters; new filters start again from the first page.
  const [paging, setPaging] = useState({ key: filterKey, pages: 1 });
  const pages = paging.key === filterKey ? paging.pages : 1;

  // A category named by the address is applied once the ids are known, not before; without one
  // the categories arriving must not fetch the list again.
  const waitingForCategories = waitsForCategories(params, categorySlug) && categories === undefined;
  // The server rendered the first page of these filters: nothing to fetch until they change.
  const shownByServer = useRef(rendered ? filterKey : undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey stands for the filters
  useEffect(() => {
    if (waitingForCategories) return;
    if (pages === 1 && shownByServer.current === filterKey) return;
    shownByServer.current = undefined;
    let live = true;
    setListing((current) => ({
      ...current,
      state: 'loading',
      ...(pages === 1 && { coupons: [], total: 0 }),
    }));
    api<CouponPage>(listingUrl({ sort, selected, q }, pages))
      .then((result) => {
        if (!live) return;
        setListing((current) => ({
          state: 'loaded',
          coupons:
            pages === 1
              ? result.data
              : [
                  ...current.coupons,
                  ...result.data.filter((c) => !current.coupons.some((o) => o.id === c.id)),
                ],
          total: result.total,
        }));
      })
      .catch(() => live && setListing((current) => ({ ...current, state: 'failed' })));
    return () => {
      live = false;
    };
  }, [filterKey, pages, waitingForCategories]);

  // A category page keeps its address while its own category is the only one chosen.
  const slugCategoryId = category
    ? categories?.find((entry) => entry.name.toLowerCase() === category.name.toLowerCase())?.id
    : undefined;

  function update(changes: { sort?: Sort; category?: number[]; q?: string }) {
    const next = new URLSearchParams();
    const nextSort = changes.sort ?? sort;
    if (nextSort !== page.sorts[0]) next.set('sort', nextSort);
    const nextCategories = changes.category ?? selected;
    const stays = !categorySlug || (nextCategories.length === 1 && nextCategories[0] === slugCategoryId);
    if (!stays || !categorySlug) for (const id of nextCategories) next.append('category', String(id));
    const nextQ = changes.q ?? q;
    if (nextQ) next.set('q', nextQ);
    const text = next.toString();
    const path = stays ? location : '/coupons';
    navigate(text ? `${path}?${text}` : path, { replace: stays });
  }

  function toggle(id: number) {
    update({
      category: selected.includes(id) ? selected.filter((other) => other !== id) : [...selected, id],
    });
  }

  function onSearch(event: FormEvent) {
    event.preventDefault();
    update({ q: query.trim() });
  }

  const tabLabel = (value: Sort) => t(`coupons.tab.${value}`);
  const bannerTitle = banner ? textIn(banner, 'title', lang) : '';

  return (
    <div className="listing-page">
      <div className="listing-head">
        <h1>{category ? t('seo.categoryTitle', { category: msg(category.name) }) : t(page.title)}</h1>
        <button
          type="button"
          className="filters-button"
          aria-expanded={filtersOpen}
          aria-controls="coupon-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {selected.length > 0 || q
            ? t('coupons.filtersChosen', { count: selected.length + (q ? 1 : 0) })
            : t('coupons.filters')}
        </button>
      </div>
      <div className="listing-layout">
        <aside id="coupon-filters" className="filters" data-open={filtersOpen}>
          <form onSubmit={onSearch} className="search-form">
            <label htmlFor="coupon-search">{t('coupons.searchLabel')}</label>
            <div className="inline-form">
              <input
                id="coupon-search"
                type="search"
                value={query}
                placeholder={t('coupons.searchPlaceholder')}
                onChange={(event) => setQuery(event.target.value)}
              />
              <button type="submit">{t('coupons.search')}</button>
            </div>
          </form>
          <fieldset className="category-select">
            <legend>{t('coupons.categoryLabel')}</legend>
            {categories === undefined ? (
              <p className="status">{t('common.loading')}</p>
            ) : categories.length === 0 ? (
              <p className="status">{t('coupons.noCategories')}</p>
            ) : (
              <ul>
                {categories.map((category) => (
                  <li key={category.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={selected.includes(category.id)}
                        onChange={() => toggle(category.id)}
                      />{' '}
                      {msg(category.name)}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
          {selected.length > 0 && (
            <button type="button" className="link-button" onClick={() => update({ category: [] })}>
              {t('coupons.clear')}
            </button>
          )}
        </aside>
        <section className="results" aria-labelledby="results-heading">
          <h2 id="results-heading" className="visually-hidden">
            {t('coupons.results')}
          </h2>
          {banner && (
            <PictureLink
              href={banner.merchantUrl}
              named={false}
              fallback={bannerTitle || t('coupons.bannerLink')}
              className="banner-slide list-banner"
            >
              <Img
                src={banner.imageUrl}
                alt={textIn(banner, 'altText', lang)}
                className="wide-banner"
                sizes={CONTENT_WIDTH}
                priority
                width={1280}
                height={320}
              />
              {bannerTitle && <span className="banner-title">{bannerTitle}</span>}
            </PictureLink>
          )}
          <div role="tablist" aria-label={t('coupons.sortLabel')} className="tabs">
            {page.sorts.map((value) => (
              <button
                key={value}
                type="button"
                role="tab"
                id={`tab-${value}`}
                aria-selected={value === sort}
                aria-controls="coupon-results"
                tabIndex={value === sort ? 0 : -1}
                onClick={() => update({ sort: value })}
                onKeyDown={(event) => {
                  const at = page.sorts.indexOf(value);
                  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  event.preventDefault();
                  const next = page.sorts[(at + step + page.sorts.length) % page.sorts.length];
                  update({ sort: next });
                  requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus());
                }}
              >
                {tabLabel(value)}
              </button>
            ))}
          </div>
          <p className="count" aria-live="polite">
            {listing.coupons.length > 0
              ? t('coupons.showing', { shown: listing.coupons.length, total: listing.total })
              : listing.state === 'loading'
                ? t('common.loading')
                : ''}
          </p>
          <div
            id="coupon-results"
            role="tabpanel"
            aria-labelledby={`tab-${sort}`}
            aria-busy={listing.state === 'loading'}
          >
            {listing.state === 'failed' && listing.coupons.length === 0 ? (
              <p className="error" role="alert">
                {t('coupons.failed')}
              </p>
            ) : listing.state === 'loaded' && listing.coupons.length === 0 ? (
              <p className="status">{t('coupons.noCoupons')}</p>
            ) : (
              <ul className="coupon-grid">
                {listing.coupons.map((coupon, position) => (
                  <li key={coupon.id}>
                    <CouponCard coupon={coupon} eager={position < 4} />
                  </li>
                ))}
              </ul>
            )}
            {listing.state === 'failed' && listing.coupons.length > 0 && (
              <p className="error" role="alert">
                {t('coupons.failed')}
              </p>
            )}
            {listing.coupons.length > 0 && listing.coupons.length < listing.total && (
              <button
                type="button"
                className="more"
                disabled={listing.state === 'loading'}
                onClick={() => setPaging({ key: filterKey, pages: pages + 1 })}
              >
                {t('coupons.more')}
              </button>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
