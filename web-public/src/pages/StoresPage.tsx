import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, type StoreList } from '../api';
import { Img } from '../components/Img';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';
import { STORES_URL, useInitialData } from '../page-data';

/** The first letter a store is filed under: A-Z, or # for names that start otherwise. */
function letterOf(name: string): string {
  const first = name.trim().charAt(0).toUpperCase();
  return /[A-Z]/.test(first) ? first : '#';
}

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('stores', lang);

/** Every store A-Z, with its logo and how many coupons it has live, grouped by letter. */
export default function StoresPage() {
  useTexts('stores');
  const { t, cashbackRate } = useI18n();
  usePageTitle(t('stores.title'));
  const rendered = useInitialData<StoreList>(STORES_URL);
  const [stores, setStores] = useState<StoreList | 'failed' | undefined>(rendered);

  useEffect(() => {
    if (rendered) return;
    let live = true;
    api<StoreList>(STORES_URL)
      .then((list) => live && setStores(list))
      .catch(() => live && setStores('failed'));
    return () => {
      live = false;
    };
  }, [rendered]);

  if (stores === undefined) {
    return (
      <p className="status" role="status">
        {t('common.loading')}
      </p>
    );
  }
  const groups = new Map<string, StoreList['data']>();
  for (const store of stores === 'failed' ? [] : stores.data) {
    const letter = letterOf(store.storeName);
    groups.set(letter, [...(groups.get(letter) ?? []), store]);
  }
  return (
    <div className="stores-page">
      <h1>{t('stores.title')}</h1>
      {stores === 'failed' && (
        <p className="error" role="alert">
          {t('store.error', { message: t('store.failed') })}
        </p>
      )}
      {stores !== 'failed' && groups.size === 0 && <p className="status">{t('stores.none')}</p>}
      {groups.size > 1 && (
        <nav aria-label={t('stores.letters')} className="letter-index">
          <ul>
            {[...groups.keys()].map((letter) => (
              <li key={letter}>
                <a href={`#stores-${letter}`}>{letter}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {[...groups].map(([letter, list]) => (
        <section key={letter} aria-labelledby={`stores-${letter}`} className="section">
          <h2 id={`stores-${letter}`}>{letter}</h2>
          <ul className="store-grid">
            {list.map((store) => (
              <li key={store.merchantId}>
                <Link href={`/store/${store.slug}`} className="store-tile">
                  <Img
                    src={store.logoUrl}
                    alt=""
                    sizes="64px"
                    width={64}
                    height={64}
                    className="store-tile-logo"
                  />
                  <span className="store-tile-name">{store.storeName}</span>
                  <span className="store-tile-count">{t('stores.count', { count: store.liveCoupons })}</span>
                  {store.cashback && (
                    <span className="store-tile-cashback">
                      {t('cashback.summary', { rate: cashbackRate(store.cashback) })}
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
