import { useState } from 'react';
import { Link } from 'wouter';
import { api, type CouponCard as Card } from '../api';
import { useI18n } from '../i18n';
import { Img } from './Img';

type Reveal =
  | { state: 'hidden' }
  | { state: 'revealing' }
  | { state: 'shown'; code: string }
  | { state: 'failed' };

/**
 * A coupon: image, title, its store (a link to the store's page), discount and expiry. 'Get code' shows the code (counted as a
 * click by the API) and opens the merchant's site in a new tab.
 */
export function CouponCard({
  coupon,
  headingLevel = 3,
  eager = false,
}: {
  coupon: Card;
  headingLevel?: 2 | 3;
  /** In the first row of the page: its image is not deferred. */
  eager?: boolean;
}) {
  const { t, money, date } = useI18n();
  const [reveal, setReveal] = useState<Reveal>({ state: 'hidden' });
  const [copied, setCopied] = useState(false);
  const [vote, setVote] = useState<'asking' | 'sending' | 'thanked' | 'failed'>('asking');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  async function getCode() {
    // The tab is opened within the click, so popup blockers let it through; it is pointed at the
    // merchant once the code is known, and closed if the code cannot be had.
    const tab = coupon.merchantUrl ? window.open('', '_blank') : null;
    setReveal({ state: 'revealing' });
    try {
      const { code, merchantUrl } = await api<{ code: string; merchantUrl: string | null }>(
        `/api/coupons/${coupon.id}/reveal`,
        { method: 'POST' },
      );
      setReveal({ state: 'shown', code });
      if (tab) {
        tab.opener = null;
        if (merchantUrl) tab.location.href = merchantUrl;
        else tab.close();
      }
    } catch {
      tab?.close();
      setReveal({ state: 'failed' });
    }
  }

  async function answer(worked: boolean) {
    setVote('sending');
    try {
      await api(`/api/coupons/${coupon.id}/votes`, { method: 'POST', body: { worked } });
      setVote('thanked');
    } catch {
      setVote('failed');
    }
  }

  async function copy(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }

  return (
    <article className="coupon-card" aria-labelledby={`coupon-${coupon.id}-title`}>
      <Img
        src={coupon.imageUrl}
        eager={eager}
        alt=""
        sizes="(min-width: 1200px) 280px, (min-width: 600px) 45vw, 88px"
      />
      <div className="coupon-body">
        <p className="discount">
          {coupon.percentage > 0
            ? t('card.off', { value: coupon.percentage })
            : t('card.flat', { amount: money(coupon.discountValue) })}
        </p>
        <Heading id={`coupon-${coupon.id}-title`} className="coupon-title">
          {coupon.title}
        </Heading>
        <p className="merchant">
          {coupon.merchant.slug ? (
            <Link href={`/store/${coupon.merchant.slug}`}>{coupon.merchant.name}</Link>
          ) : (
            coupon.merchant.name
          )}
        </p>
        <p className="expiry">{t('card.expires', { date: date(coupon.expiresAt) })}</p>
        {(coupon.successRate !== null || coupon.usedToday > 0) && (
          <p className="trust">
            {coupon.successRate !== null && (
              <span>{t('card.success', { rate: coupon.successRate, votes: coupon.votes })}</span>
            )}
            {coupon.usedToday > 0 && <span>{t('card.usedToday', { count: coupon.usedToday })}</span>}
          </p>
        )}
        {reveal.state === 'shown' ? (
          <div className="code-box">
            <span className="visually-hidden">{t('card.code')}: </span>
            <code data-testid="coupon-code">{reveal.code}</code>
            <button type="button" onClick={() => void copy(reveal.code)}>
              {copied ? t('card.copied') : t('card.copy')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => void getCode()}
            disabled={reveal.state === 'revealing'}
            aria-describedby={`coupon-${coupon.id}-title`}
          >
            {t('card.getCode')}
          </button>
        )}
        {reveal.state === 'shown' && (
          <fieldset className="vote" aria-live="polite">
            {vote === 'thanked' ? (
              <p>{t('card.thanks')}</p>
            ) : (
              <>
                <legend>{t('card.didItWork')}</legend>
                <button type="button" disabled={vote === 'sending'} onClick={() => void answer(true)}>
                  {t('card.yes')}
                </button>
                <button type="button" disabled={vote === 'sending'} onClick={() => void answer(false)}>
                  {t('card.no')}
                </button>
                {vote === 'failed' && (
                  <p className="error" role="alert">
                    {t('card.voteFailed')}
                  </p>
                )}
              </>
            )}
          </fieldset>
        )}
        {reveal.state === 'failed' && (
          <p className="error" role="alert">
            {t('card.revealFailed')}
          </p>
        )}
      </div>
    </article>
  );
}
