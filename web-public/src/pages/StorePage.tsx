import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, api, type CouponPage, type Product, type Store } from '../api';
import { CouponCard } from '../components/CouponCard';
import { FollowButton } from '../components/FollowButton';
import { CONTENT_WIDTH, Img, STORE_LOGO_SIZES } from '../components/Img';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';
import { storeCouponsUrl, storeUrl, useInitialData } from '../page-data';

type Loaded =
  | { state: 'loading' }
  | { state: 'loaded'; store: Store }
  | { state: 'failed'; message?: string };

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('stores', lang);

/**
 * A merchant's public store: banner, logo, its live coupons, category pills that stay in view,
 * products in rupees. Reached by its slug; an old address by merchant id moves to the slug.
 */
export default function StorePage({ address }: { address: string }) {
  useTexts('stores');
  const { t, msg } = useI18n();
  const [, navigate] = useLocation();
  const rendered = useInitialData<Store>(storeUrl(address));
  const [loaded, setLoaded] = useState<Loaded>(
    rendered ? { state: 'loaded', store: rendered } : { state: 'loading' },
  );
  const merchantId = loaded.state === 'loaded' ? loaded.store.merchantId : undefined;
  const renderedCoupons = useInitialData<CouponPage>(
    merchantId === undefined ? undefined : storeCouponsUrl(merchantId),
  );
  const [coupons, setCoupons] = useState<CouponPage | undefined>(renderedCoupons);
  usePageTitle(
    loaded.state === 'loaded' ? t('seo.storeTitle', { store: loaded.store.storeName }) : t('store.title'),
  );

  useEffect(() => {
    if (rendered) return;
    let live = true;
    setLoaded({ state: 'loading' });
    api<Store>(storeUrl(address))
      .then((store) => live && setLoaded({ state: 'loaded', store }))
      .catch((error) => {
        if (!live) return;
        const message =
          error instanceof ApiError && error.status !== 0 && error.status < 500 ? error.message : undefined;
        setLoaded({ state: 'failed', message });
      });
    return () => {
      live = false;
    };
  }, [address, rendered]);

  useEffect(() => {
    if (merchantId === undefined || renderedCoupons) return;
    let live = true;
    api<CouponPage>(storeCouponsUrl(merchantId))
      .then((page) => live && setCoupons(page))
      .catch(() => live && setCoupons({ data: [], total: 0 }));
    return () => {
      live = false;
    };
  }, [merchantId, renderedCoupons]);

  // An old address (`/store/4`) moves to the store's own.
  const slug = loaded.state === 'loaded' ? loaded.store.slug : undefined;
  useEffect(() => {
    if (slug && slug !== address) navigate(`/store/${slug}`, { replace: true });
  }, [slug, address, navigate]);

  if (loaded.state === 'loading') {
    return (
      <p className="status" role="status">
        {t('common.loading')}
      </p>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <div className="store-page">
        <h1>{t('store.title')}</h1>
        <p className="error" role="alert">
          {t('store.error', { message: loaded.message ? msg(loaded.message) : t('store.failed') })}
        </p>
      </div>
    );
  }
  const { store } = loaded;
  const sections = [
    ...store.categories.filter((category) => category.products.length > 0),
    ...(store.uncategorised.length > 0
      ? [{ id: 0, categoryName: t('store.otherProducts'), description: null, products: store.uncategorised }]
      : []),
  ];
  return (
    <div className="store-page">
      {store.heroBannerUrl && (
        <Img
          src={store.heroBannerUrl}
          priority
          className="wide-banner"
          sizes={CONTENT_WIDTH}
          width={1280}
          height={320}
        />
      )}
      <div className="store-heading">
        {store.logoUrl && (
          // At the top of the page: without a banner above it, the page's main image.
          <Img
            src={store.logoUrl}
            alt={t('store.logo', { store: store.storeName })}
            className="store-logo"
            sizes={STORE_LOGO_SIZES}
            width={96}
            height={96}
            priority={!store.heroBannerUrl}
            eager
          />
        )}
        <div>
          <h1>{store.storeName}</h1>
          {store.tagline && <p className="tagline">{store.tagline}</p>}
          {store.storeAddress && <p className="address">{store.storeAddress}</p>}
        </div>
        <FollowButton merchantId={store.merchantId} storeName={store.storeName} />
      </div>
      {store.cashback && <StoreCashback cashback={store.cashback} storeName={store.storeName} />}
      <section aria-labelledby="store-coupons" className="section">
        <h2 id="store-coupons">{t('storeCoupons.title')}</h2>
        {coupons === undefined ? (
          <p className="status" role="status">
            {t('common.loading')}
          </p>
        ) : coupons.data.length === 0 ? (
          <p className="status">{t('storeCoupons.none')}</p>
        ) : (
          <ul className="coupon-grid">
            {coupons.data.map((coupon) => (
              <li key={coupon.id}>
                <CouponCard coupon={coupon} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {sections.length > 1 && (
        <nav aria-label={t('store.categories')} className="store-pills">
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#store-category-${section.id}`}>{section.categoryName}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {sections.length === 0 && <p className="status">{t('store.noProducts')}</p>}
      {sections.map((section) => (
        <section
          key={section.id}
          id={`store-category-${section.id}`}
          aria-labelledby={`store-category-${section.id}-title`}
          className="section store-section"
        >
          <h2 id={`store-category-${section.id}-title`}>{section.categoryName}</h2>
          {section.description && <p>{section.description}</p>}
          <ul className="product-grid">
            {section.products.map((product) => (
              <li key={product.id}>
                <ProductCard product={product} />
              </li>
            ))}
          </ul>
        </section>
      ))}
      {store.aboutDescription && (
        <section aria-labelledby="store-about" className="section">
          <h2 id="store-about">{t('store.about')}</h2>
          <p>{store.aboutDescription}</p>
        </section>
      )}
      {store.landingBannerUrl && (
        <Img
          src={store.landingBannerUrl}
          className="wide-banner"
          sizes={CONTENT_WIDTH}
          width={1280}
          height={320}
        />
      )}
    </div>
  );
}

/**
 * What the store pays back, before the shopper decides: "up to", each rate in a table (its
 * categories' first, then every other purchase), when it is confirmed, its terms and exclusions
 * in the page's language (English where it has none), and how a purchase earns it.
 */
function StoreCashback({
  cashback,
  storeName,
}: {
  cashback: NonNullable<Store['cashback']>;
  storeName: string;
}) {
  const { t, msg, lang, cashbackRate: rate } = useI18n();
  const terms = cashback.terms[lang] || cashback.terms.en;
  const exclusions = cashback.exclusions[lang] || cashback.exclusions.en;
  return (
    <section aria-labelledby="store-cashback" className="section store-cashback">
      <h2 id="store-cashback">{t('storeCashback.title', { store: storeName })}</h2>
      <p className="cashback-summary">{t('cashback.summary', { rate: rate(cashback.upTo) })}</p>
      <table className="cashback-rates">
        <caption className="visually-hidden">{t('storeCashback.rates')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('storeCashback.purchase')}</th>
            <th scope="col">{t('storeCashback.rate')}</th>
          </tr>
        </thead>
        <tbody>
          {cashback.categories.map((category) => (
            <tr key={category.name}>
              <th scope="row">{msg(category.name)}</th>
              <td>{rate(category.rate)}</td>
            </tr>
          ))}
          {cashback.base && (
            <tr>
              <th scope="row">
                {t(
                  cashback.categories.length > 0
                    ? 'storeCashback.otherPurchases'
                    : 'storeCashback.everyPurchase',
                )}
              </th>
              <td>{rate(cashback.base)}</td>
            </tr>
          )}
        </tbody>
      </table>
      <p className="cashback-confirm">{t('storeCashback.confirmDays', { count: cashback.confirmDays })}</p>
      {terms && (
        <>
          <h3>{t('storeCashback.terms')}</h3>
          <p className="terms">{terms}</p>
        </>
      )}
      {exclusions && (
        <>
          <h3>{t('storeCashback.exclusions')}</h3>
          <p className="terms">{exclusions}</p>
        </>
      )}
      <h3>{t('storeCashback.howTitle')}</h3>
      <ol className="cashback-steps">
        <li>{t('storeCashback.stepSignIn')}</li>
        <li>{t('storeCashback.stepClickOut')}</li>
        <li>{t('storeCashback.stepBuy')}</li>
        <li>{t('storeCashback.stepTracked')}</li>
      </ol>
    </section>
  );
}

function ProductCard({ product }: { product: Product }) {
  const { t, money } = useI18n();
  const image = product.images.medium ?? product.images.small ?? product.images.large;
  return (
    <article className="product-card" aria-labelledby={`product-${product.id}`}>
      <Img src={image} alt="" sizes="(min-width: 1200px) 240px, (min-width: 640px) 30vw, 45vw" />
      <h3 id={`product-${product.id}`}>{product.productName}</h3>
      {product.brand && <p className="merchant">{product.brand}</p>}
      <p className="price">{money(product.price)}</p>
      {product.merchantUrl && (
        <a
          href={product.merchantUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby={`product-${product.id}`}
        >
          {t('store.buy')}
        </a>
      )}
    </article>
  );
}
