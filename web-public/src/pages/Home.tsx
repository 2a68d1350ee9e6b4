import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api, type Banner, type Home as HomeContent } from '../api';
import { Carousel } from '../components/Carousel';
import { CouponCard, discount } from '../components/CouponCard';
import { CONTENT_WIDTH, Img, PictureLink } from '../components/Img';
import { SearchBox } from '../components/SearchBox';
import { CONTENT_DEFAULTS, textIn } from '../forms/rules';
import { useI18n, usePageTitle } from '../i18n';
import { HOME_URL, useInitialData } from '../page-data';

const TILES_SHOWN = 12;
const TILES_TOTAL = 16;
/** One row of stores beside each other on a desktop's first screen. */
const TOP_STORES = 6;

/**
 * The home page. Its first screen holds the search (the header's on a wide screen, its own on a
 * phone, where the header keeps it behind a button), the hero and, on a desktop, a row of the
 * top stores; every picture and list has its size before it loads, so nothing moves. The
 * admins' texts (flash text, titles, alt texts) come in the three languages and show in the
 * visitor's, English where a translation is missing.
 */
export function Home() {
  const { t } = useI18n();
  usePageTitle(t('seo.homeTitle'));
  const rendered = useInitialData<HomeContent>(HOME_URL);
  const [home, setHome] = useState<HomeContent | undefined>(rendered);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (rendered) return;
    let live = true;
    api<HomeContent>(HOME_URL)
      .then((content) => live && setHome(content))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [rendered]);

  const sideBanners = home ? [...home.banners.left, ...home.banners.right] : [];
  return (
    <div className="home">
      <h1 className="visually-hidden">{t('home.title')}</h1>
      <FlashText home={home} />
      <div className="home-search">
        <SearchBox />
      </div>
      {home
        ? home.heroes.length > 0 && <Heroes heroes={home.heroes} />
        : // The hero's place while the content loads after a move within the site.
          !failed && <div className="hero-placeholder" />}
      {home && <TopStores coupons={home.topCoupons} />}
      {sideBanners.length > 0 && <TopBanners banners={sideBanners} />}
      <section aria-labelledby="top-coupons" className="section">
        <h2 id="top-coupons">{t('home.topCoupons')}</h2>
        {failed ? (
          <p className="error" role="alert">
            {t('coupons.failed')}
          </p>
        ) : home ? (
          <Tiles
            coupons={home.topCoupons.slice(0, TILES_TOTAL)}
            firstRowInView={home.heroes.length === 0 && sideBanners.length === 0}
          />
        ) : (
          <p className="status" role="status">
            {t('common.loading')}
          </p>
        )}
      </section>
      {home && home.seasonalOffers.length > 0 && <SeasonalOffers offers={home.seasonalOffers} />}
      {home?.bestOfferBanner && <BestOffer banner={home.bestOfferBanner} />}
    </div>
  );
}

function Heroes({ heroes }: { heroes: HomeContent['heroes'] }) {
  const { t, lang } = useI18n();
  return (
    <Carousel
      label={t('home.heroes')}
      slides={[...heroes]
        .sort((a, b) => a.sortOrder - b.sortOrder)
        .map((hero, position) => {
          const title = textIn(hero, 'title', lang);
          const alt = textIn(hero, 'altText', lang);
          return (
            <PictureLink
              key={hero.id}
              href={hero.merchantUrl}
              named={Boolean(title || alt)}
              fallback={t('home.heroLink', { n: position + 1 })}
              className="hero-slide"
            >
              <Img
                src={hero.imageUrl}
                alt={alt}
                priority={position === 0}
                className="hero-image"
                sizes={CONTENT_WIDTH}
                width={1280}
                height={400}
              />
              {title && (
                <span className="hero-text">
                  <span className="hero-title">{title}</span>
                  <span className="hero-action" aria-hidden="true">
                    {t('home.heroAction')}
                  </span>
                </span>
              )}
            </PictureLink>
          );
        })}
    />
  );
}

function FlashText({ home }: { home: HomeContent | undefined }) {
  const { t, lang } = useI18n();
  const flash = home?.flashText;
  const text = textIn(flash, 'text', lang) || t('home.flashDefault');
  if (flash?.contentType === 'image' && flash.imageUrl) {
    return (
      <div className="flash-strip">
        <PictureLink href={flash.merchantUrl} named fallback={text}>
          <Img src={flash.imageUrl} alt={text} priority height={48} />
        </PictureLink>
      </div>
    );
  }
  return (
    <div className="flash-strip">
      {flash?.merchantUrl ? (
        <a href={flash.merchantUrl} target="_blank" rel="noopener noreferrer">
          {text}
        </a>
      ) : (
        <p>{text}</p>
      )}
    </div>
  );
}

/** The stores of the top coupons, in their order, each with its best discount among them. */
function TopStores({ coupons }: { coupons: HomeContent['topCoupons'] }) {
  const i18n = useI18n();
  const stores = new Map<number, HomeContent['topCoupons'][number]>();
  for (const coupon of coupons) {
    const known = stores.get(coupon.merchant.id);
    if (!known && stores.size >= TOP_STORES) continue;
    if (!known || (coupon.percentage ?? 0) > (known.percentage ?? 0)) stores.set(coupon.merchant.id, coupon);
  }
  if (stores.size === 0) return null;
  return (
    <section aria-labelledby="top-stores" className="top-stores">
      <div className="section-heading">
        <h2 id="top-stores">{i18n.t('home.topStores')}</h2>
        <Link href="/stores">{i18n.t('home.allStores')}</Link>
      </div>
      <ul>
        {[...stores.values()].map((coupon) => (
          <li key={coupon.merchant.id}>
            <Link href={coupon.merchant.slug ? `/store/${coupon.merchant.slug}` : '/stores'}>
              {coupon.merchant.logoUrl ? (
                <Img src={coupon.merchant.logoUrl} alt="" sizes="40px" width={40} height={40} />
              ) : (
                <span className="store-initial" aria-hidden="true">
                  {coupon.merchant.name.trim().charAt(0).toUpperCase()}
                </span>
              )}
              <span className="top-store-name">{coupon.merchant.name}</span>
              <span className="top-store-offer">{discount(i18n, coupon)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function TopBanners({ banners }: { banners: Banner[] }) {
  const { t, lang } = useI18n();
  return (
    <div className="top-banners">
      {banners.map((banner, position) => {
        const title = textIn(banner, 'title', lang);
        const alt = textIn(banner, 'altText', lang);
        return (
          <PictureLink
            key={banner.id}
            href={banner.merchantUrl}
            named={Boolean(title || alt)}
            fallback={t('home.bannerLink', { n: position + 1 })}
            className="banner-slide"
          >
            <Img
              src={banner.imageUrl}
              alt={alt}
              sizes="(min-width: 1320px) 604px, (min-width: 600px) 46vw, 68vw"
              width={640}
              height={240}
            />
            {title && <span className="banner-title">{title}</span>}
          </PictureLink>
        );
      })}
    </div>
  );
}

/** Tiles in rows of up to four; when nothing stands above them, the first row is not deferred. */
function Tiles({ coupons, firstRowInView }: { coupons: HomeContent['topCoupons']; firstRowInView: boolean }) {
  const { t } = useI18n();
  const [all, setAll] = useState(false);
  if (coupons.length === 0) return <p className="status">{t('coupons.noCoupons')}</p>;
  const shown = all ? coupons : coupons.slice(0, TILES_SHOWN);
  return (
    <>
      <ul className="coupon-grid">
        {shown.map((coupon, position) => (
          <li key={coupon.id}>
            <CouponCard coupon={coupon} eager={firstRowInView && position < 4} />
          </li>
        ))}
      </ul>
      {coupons.length > TILES_SHOWN && (
        <button type="button" className="more" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('home.showLess') : t('home.showMore')}
        </button>
      )}
    </>
  );
}

function SeasonalOffers({ offers }: { offers: HomeContent['seasonalOffers'] }) {
  const { t, lang } = useI18n();
  const strip = useRef<HTMLUListElement>(null);
  const sorted = [...offers].sort((a, b) => a.slot - b.slot).slice(0, 4);
  // One view further or back: one offer on phones, three on mid-size screens, four on wide ones.
  const turn = (direction: 1 | -1) => {
    const element = strip.current;
    if (!element) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    element.scrollBy({ left: direction * element.clientWidth, behavior: reduce ? 'auto' : 'smooth' });
  };
  return (
    <section
      aria-labelledby="seasonal"
      className="section seasonal"
      aria-roledescription={t('home.carouselRole')}
    >
      <div className="section-heading">
        <h2 id="seasonal">{t('home.seasonal')}</h2>
        <div className="carousel-controls">
          <button type="button" onClick={() => turn(-1)} aria-label={t('home.previous')}>
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" onClick={() => turn(1)} aria-label={t('home.next')}>
            <span aria-hidden="true">›</span>
          </button>
        </div>
      </div>
      <ul className="seasonal-strip" ref={strip}>
        {sorted.map((offer) => {
          const title = textIn(offer, 'title', lang);
          const alt = textIn(offer, 'altText', lang);
          return (
            <li key={offer.slot}>
              <PictureLink
                href={offer.merchantUrl}
                named={Boolean(title || alt)}
                fallback={t('home.seasonalLink', { n: offer.slot })}
              >
                <Img
                  src={offer.imageUrl}
                  alt={alt}
                  sizes="(min-width: 1320px) 300px, (min-width: 1200px) 23vw, (min-width: 768px) 31vw, 90vw"
                  width={480}
                  height={320}
                />
                {title && <span className="seasonal-title">{title}</span>}
              </PictureLink>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function BestOffer({ banner }: { banner: NonNullable<HomeContent['bestOfferBanner']> }) {
  const { t, lang } = useI18n();
  // The spec's default name ('Bo') is a label for admins, not a text for shoppers.
  const name = banner.name === CONTENT_DEFAULTS.bestOfferBanner ? '' : textIn(banner, 'name', lang);
  return (
    <section aria-labelledby="best-offer" className="section">
      <h2 id="best-offer">{t('home.bestOffer')}</h2>
      <PictureLink href={banner.merchantUrl} named={Boolean(name)} fallback={t('home.bestOffer')}>
        <Img
          src={banner.imageUrl}
          alt={name}
          className="wide-banner"
          sizes={CONTENT_WIDTH}
          width={1280}
          height={320}
        />
      </PictureLink>
    </section>
  );
}
