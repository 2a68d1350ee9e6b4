import { useEffect, useRef, useState } from 'react';
import { api, type Banner, type Home as HomeContent } from '../api';
import { Carousel } from '../components/Carousel';
import { CouponCard } from '../components/CouponCard';
import { CONTENT_WIDTH, Img, MerchantLink } from '../components/Img';
import { useI18n, usePageTitle } from '../i18n';
import { HOME_URL, useInitialData } from '../page-data';

const TILES_SHOWN = 12;
const TILES_TOTAL = 16;

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

  return (
    <div className="home">
      <h1 className="visually-hidden">{t('home.title')}</h1>
      <FlashText home={home} />
      {home && home.heroes.length > 0 && (
        <Carousel
          label={t('home.heroes')}
          slides={[...home.heroes]
            .sort((a, b) => a.sortOrder - b.sortOrder)
            .map((hero, position) => (
              <MerchantLink
                key={hero.id}
                href={hero.merchantUrl}
                label={t('home.heroLink', { n: position + 1 })}
              >
                <Img
                  src={hero.imageUrl}
                  priority={position === 0}
                  className="hero-image"
                  sizes={CONTENT_WIDTH}
                  width={1280}
                  height={400}
                />
              </MerchantLink>
            ))}
        />
      )}
      {home && <TopBanners banners={[...home.banners.left, ...home.banners.right]} />}
      <section aria-labelledby="top-coupons" className="section">
        <h2 id="top-coupons">{t('home.topCoupons')}</h2>
        {failed ? (
          <p className="error" role="alert">
            {t('coupons.failed')}
          </p>
        ) : home ? (
          <Tiles
            coupons={home.topCoupons.slice(0, TILES_TOTAL)}
            firstRowInView={
              home.heroes.length === 0 && home.banners.left.length + home.banners.right.length === 0
            }
          />
        ) : (
          <p className="status" role="status">
            {t('common.loading')}
          </p>
        )}
      </section>
      {home && home.seasonalOffers.length > 0 && <SeasonalOffers offers={home.seasonalOffers} />}
      {home?.bestOfferBanner && (
        <section aria-labelledby="best-offer" className="section">
          <h2 id="best-offer">{t('home.bestOffer')}</h2>
          <MerchantLink href={home.bestOfferBanner.merchantUrl} label={t('home.bestOffer')}>
            <Img
              src={home.bestOfferBanner.imageUrl}
              className="wide-banner"
              sizes={CONTENT_WIDTH}
              width={1280}
              height={320}
            />
          </MerchantLink>
        </section>
      )}
    </div>
  );
}

function FlashText({ home }: { home: HomeContent | undefined }) {
  const { t } = useI18n();
  const flash = home?.flashText;
  if (flash?.contentType === 'image' && flash.imageUrl) {
    return (
      <div className="flash-strip">
        <MerchantLink href={flash.merchantUrl} label={flash.text || t('home.flashDefault')}>
          <Img src={flash.imageUrl} alt={flash.text} priority height={48} />
        </MerchantLink>
      </div>
    );
  }
  const text = flash?.text || t('home.flashDefault');
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

function TopBanners({ banners }: { banners: Banner[] }) {
  const { t } = useI18n();
  if (banners.length === 0) return null;
  return (
    <div className="top-banners">
      {banners.map((banner, position) => (
        <MerchantLink
          key={banner.id}
          href={banner.merchantUrl}
          label={t('home.bannerLink', { n: position + 1 })}
        >
          <Img
            src={banner.imageUrl}
            sizes="(min-width: 1320px) 604px, (min-width: 600px) 46vw, 68vw"
            width={640}
            height={240}
            eager={position < 2}
          />
        </MerchantLink>
      ))}
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
  const { t } = useI18n();
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
        {sorted.map((offer) => (
          <li key={offer.slot}>
            <MerchantLink href={offer.merchantUrl} label={t('home.seasonalLink', { n: offer.slot })}>
              <Img
                src={offer.imageUrl}
                sizes="(min-width: 1320px) 300px, (min-width: 1200px) 23vw, (min-width: 768px) 31vw, 90vw"
                width={480}
                height={320}
              />
            </MerchantLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
