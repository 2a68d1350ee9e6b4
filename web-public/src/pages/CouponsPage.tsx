import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, type Banner, type CouponCard as Card, type Category, type CouponPage } from '../api';
import { CouponCard } from '../components/CouponCard';
import { CONTENT_WIDTH, Img, MerchantLink } from '../components/Img';
import { COUPON_LISTING } from '../forms/rules';
import { useI18n, usePageTitle } from '../i18n';

type Kind = 'coupons' | 'categories' | 'top' | 'best';
type Sort = 'popular' | 'az' | 'newest' | 'top' | 'best';

/** Each page: its default order (tabs switch to the others) and its banner position. */
const PAGES: Record<Kind, { title: string; sorts: Sort[]; banner: 'cat' | 'Tc' | 'Bo' }> = {
  coupons: { title: 'coupons.titleCoupons', sorts: ['popular', 'az', 'newest'], banner: 'cat' },
  categories: { title: 'coupons.titleCategories', sorts: ['popular', 'az', 'newest'], banner: 'cat' },
  top: { title: 'coupons.titleTop', sorts: ['top', 'popular', 'az', 'newest'], banner: 'Tc' },
  best: { title: 'coupons.titleBest', sorts: ['best', 'popular', 'az', 'newest'], banner: 'Bo' },
};

type Listing =
  | { state: 'loading'; coupons: Card[]; total: number }
  | { state: 'loaded'; coupons: Card[]; total: number }
  | { state: 'failed'; coupons: Card[]; total: number };

export default function CouponsPage({ kind }: { kind: Kind }) {
  const { t, msg } = useI18n();
  const page = PAGES[kind];
  usePageTitle(t(page.title));
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const sort = (page.sorts as string[]).includes(params.get('sort') ?? '')
    ? (params.get('sort') as Sort)
    : page.sorts[0];
  const q = params.get('q') ?? '';
  const [categories, setCategories] = useState<Category[]>();
  const selected = useMemo(() => {
    const ids = new Set(params.getAll('category').map(Number).filter(Number.isInteger));
    // A header link names its category; its id is known once the categories are.
    const named = params.get('name')?.toLowerCase();
    const match = named && categories?.find((category) => category.name.toLowerCase() === named);
    if (match) ids.add(match.id);
    return [...ids].sort((a, b) => a - b);
  }, [params, categories]);
  const [listing, setListing] = useState<Listing>({ state: 'loading', coupons: [], total: 0 });
  const [banner, setBanner] = useState<Banner>();
  const [query, setQuery] = useState(q);

  useEffect(() => setQuery(q), [q]);

  useEffect(() => {
    api<Category[]>('/api/categories')
      .then(setCategories)
      .catch(() => setCategories([]));
  }, []);

  useEffect(() => {
    let live = true;
    api<Banner[]>(`/api/banners?position=${page.banner}`)
      .then((banners) => live && setBanner(Array.isArray(banners) ? banners[0] : undefined))
      .catch(() => live && setBanner(undefined));
    return () => {
      live = false;
    };
  }, [page.banner]);

  const filterKey = `${sort}|${selected.join(',')}|${q}`;
  // Pages shown for the current filters; new filters start again from the first page.
  const [paging, setPaging] = useState({ key: filterKey, pages: 1 });
  const pages = paging.key === filterKey ? paging.pages : 1;

  // A header link's category is applied once the ids are known, not before; without one the
  // categories arriving must not fetch the list again.
  const waitingForCategories = Boolean(params.get('name')) && categories === undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey stands for the filters
  useEffect(() => {
    if (waitingForCategories) return;
    let live = true;
    const query = new URLSearchParams({
      sort,
      page: String(pages),
      perPage: String(COUPON_LISTING.defaultPerPage),
    });
    for (const id of selected) query.append('category', String(id));
    if (q) query.set('q', q);
    setListing((current) => ({
      ...current,
      state: 'loading',
      ...(pages === 1 && { coupons: [], total: 0 }),
    }));
    api<CouponPage>(`/api/coupons?${query}`)
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

  function update(changes: { sort?: Sort; category?: number[]; q?: string }) {
    const next = new URLSearchParams();
    const nextSort = changes.sort ?? sort;
    if (nextSort !== page.sorts[0]) next.set('sort', nextSort);
    for (const id of changes.category ?? selected) next.append('category', String(id));
    const nextQ = changes.q ?? q;
    if (nextQ) next.set('q', nextQ);
    const text = next.toString();
    navigate(text ? `${location}?${text}` : location, { replace: true });
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

  return (
    <div className="listing-page">
      <h1>{t(page.title)}</h1>
      {banner && (
        <MerchantLink href={banner.merchantUrl} label={t('coupons.bannerLink')}>
          <Img
            src={banner.imageUrl}
            className="wide-banner"
            sizes={CONTENT_WIDTH}
            priority
            width={1280}
            height={320}
          />
        </MerchantLink>
      )}
      <div className="listing-layout">
        <aside className="filters">
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
              <>
                <p className="count" aria-live="polite">
                  {listing.state === 'loading' && listing.coupons.length === 0
                    ? t('common.loading')
                    : t('coupons.showing', { shown: listing.coupons.length, total: listing.total })}
                </p>
                <ul className="coupon-grid">
                  {listing.coupons.map((coupon) => (
                    <li key={coupon.id}>
                      <CouponCard coupon={coupon} />
                    </li>
                  ))}
                </ul>
              </>
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
