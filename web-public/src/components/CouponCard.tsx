import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api, type CouponCard as Card } from '../api';
import { couponTextIn, daysLeft, ENDS_SOON_DAYS } from '../forms/rules';
import { type I18n, useI18n } from '../i18n';
import { GoToStore } from './GoToStore';
import { Img } from './Img';

type Reveal =
  | { state: 'hidden' }
  | { state: 'revealing' }
  | { state: 'shown'; code: string | null; merchantUrl: string | null }
  | { state: 'failed' };

/** When the offer ends, in words while it is near ("Ends today", "Ends in 3 days"), else its date. */
export function endsIn({ t, shortDate }: Pick<I18n, 't' | 'shortDate'>, expiresAt: string): string {
  const days = daysLeft(expiresAt);
  if (days <= 0) return t('card.endsToday');
  if (days === 1) return t('card.endsTomorrow');
  if (days <= ENDS_SOON_DAYS) return t('card.endsInDays', { days });
  return t('card.endsOn', { date: shortDate(new Date(new Date(expiresAt).getTime() - 1)) });
}

/**
 * The discount, said once: the percentage, else the rupees off; nothing when the offer gives
 * neither (a network's deal), and the card then leads with its title.
 */
export function discount({ t, money }: Pick<I18n, 't' | 'money'>, coupon: Card): string | null {
  if (coupon.percentage) return t('card.off', { value: coupon.percentage });
  return coupon.discountValue ? t('card.flat', { amount: money(coupon.discountValue) }) : null;
}

/** The store's logo, or its initial on a tile when it has none. */
function StoreMark({ coupon, eager }: { coupon: Card; eager?: boolean }) {
  if (coupon.merchant.logoUrl)
    return (
      <Img
        className="store-mark"
        src={coupon.merchant.logoUrl}
        alt=""
        sizes="56px"
        width={56}
        height={56}
        eager={eager}
      />
    );
  return (
    <span className="store-mark store-initial" aria-hidden="true">
      {coupon.merchant.name.trim().charAt(0).toUpperCase()}
    </span>
  );
}

/**
 * A coupon, compact: its store (logo and a link to the store's page), the discount once, the
 * title, when it ends, shoppers' verdict, and its description and terms behind "Details", in the
 * page's language where the coupon has its texts in it. "Get code" shows the code in a dialog on
 * this page, with a copy button and a link that opens the shop in a new tab: the code stays in
 * front of the shopper, and on the card once the dialog closes. A deal has no code: "Get deal"
 * opens the dialog with the way to the shop alone.
 */
export function CouponCard({
  coupon,
  headingLevel = 3,
  eager = false,
}: {
  coupon: Card;
  headingLevel?: 2 | 3;
  /** In the first screen of the page: its logo is not deferred. */
  eager?: boolean;
}) {
  const i18n = useI18n();
  const { t, money, date, cashbackRate } = i18n;
  const text = couponTextIn(coupon, i18n.lang);
  const offer = discount(i18n, coupon);
  const [reveal, setReveal] = useState<Reveal>({ state: 'hidden' });
  const [details, setDetails] = useState(false);
  // The dialog's content is made on the first "Get code", not sent with every card of the page.
  const [dialogMade, setDialogMade] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const titleId = `coupon-${coupon.id}-title`;
  // An open-ended coupon has no end to show.
  const ends = coupon.expiresAt && endsIn(i18n, coupon.expiresAt);

  // Opened once its content is in the page, so the dialog's first button takes the focus.
  useEffect(() => {
    const shown = dialog.current;
    if (dialogOpen && shown && !shown.open) shown.showModal();
    if (!dialogOpen && shown?.open) shown.close();
  }, [dialogOpen]);

  async function getCode() {
    setDialogMade(true);
    setDialogOpen(true);
    if (reveal.state === 'shown') return;
    setReveal({ state: 'revealing' });
    try {
      const { code, merchantUrl } = await api<{ code: string | null; merchantUrl: string | null }>(
        `/api/coupons/${coupon.id}/reveal`,
        { method: 'POST' },
      );
      setReveal({ state: 'shown', code, merchantUrl });
    } catch {
      setReveal({ state: 'failed' });
    }
  }

  return (
    <article className="coupon-card" aria-labelledby={titleId}>
      <StoreMark coupon={coupon} eager={eager} />
      <p className="offer">
        {offer && <span className="discount">{offer}</span>}
        <span className="offer-kind">{t(coupon.hasCode ? 'card.codeTag' : 'card.dealTag')}</span>
        {coupon.exclusive && <span className="exclusive">{t('card.exclusive')}</span>}
        {coupon.cashback && (
          <span className="cashback-tag">{t('cashback.upTo', { rate: cashbackRate(coupon.cashback) })}</span>
        )}
      </p>
      <Heading id={titleId} className="coupon-title">
        {text.title}
      </Heading>
      <p className="coupon-meta">
        {coupon.merchant.slug ? (
          <Link href={`/store/${coupon.merchant.slug}`}>{coupon.merchant.name}</Link>
        ) : (
          <span>{coupon.merchant.name}</span>
        )}
        {ends && <span className={daysLeft(coupon.expiresAt!) <= 1 ? 'ends ends-soon' : 'ends'}>{ends}</span>}
        {coupon.successRate !== null && (
          <span
            className="trust"
            title={t('card.success', { rate: coupon.successRate, votes: coupon.votes })}
          >
            <span aria-hidden="true">✓ {coupon.successRate}%</span>
            <span className="visually-hidden">
              {t('card.success', { rate: coupon.successRate, votes: coupon.votes })}
            </span>
          </span>
        )}
        <button
          type="button"
          className="details-toggle"
          aria-expanded={details}
          aria-controls={`${id}-details`}
          onClick={() => setDetails((open) => !open)}
        >
          {t('card.details')}
        </button>
      </p>
      {reveal.state === 'shown' && reveal.code !== null ? (
        <button type="button" className="code-chip" onClick={() => void getCode()}>
          <span className="visually-hidden">{t('card.code')}: </span>
          <code data-testid="card-code">{reveal.code}</code>
        </button>
      ) : (
        <button
          type="button"
          className="primary get-code"
          onClick={() => void getCode()}
          disabled={reveal.state === 'revealing'}
          aria-describedby={titleId}
          aria-haspopup="dialog"
        >
          {t(coupon.hasCode ? 'card.getCode' : 'card.getDeal')}
        </button>
      )}
      <div id={`${id}-details`} className="coupon-details" hidden={!details}>
        {details && (
          <>
            {coupon.imageUrl && <Img className="coupon-ad" src={coupon.imageUrl} alt="" sizes="320px" />}
            <p>{text.description}</p>
            {!!coupon.discountValue && <p>{t('card.saveUpTo', { amount: money(coupon.discountValue) })}</p>}
            {coupon.usedToday > 0 && <p>{t('card.usedToday', { count: coupon.usedToday })}</p>}
            {coupon.successRate !== null && (
              <p>{t('card.success', { rate: coupon.successRate, votes: coupon.votes })}</p>
            )}
            <p>{t('card.verified', { date: date(coupon.verifiedAt) })}</p>
            {text.terms && (
              <>
                <p className="terms-heading">{t('card.terms')}</p>
                <p className="terms">{text.terms}</p>
              </>
            )}
          </>
        )}
      </div>
      <dialog
        ref={dialog}
        className="reveal-dialog"
        aria-labelledby={`${id}-dialog-title`}
        onClose={() => setDialogOpen(false)}
      >
        {dialogMade && (
          <RevealPanel
            coupon={coupon}
            title={text.title}
            ends={ends}
            reveal={reveal}
            titleId={`${id}-dialog-title`}
            onClose={() => setDialogOpen(false)}
            onRetry={() => void getCode()}
          />
        )}
      </dialog>
    </article>
  );
}

/**
 * The dialog's content: the code to copy, the way to the shop and "did it work?"; for a deal, the
 * way to the shop alone.
 */
function RevealPanel({
  coupon,
  title,
  ends,
  reveal,
  titleId,
  onClose,
  onRetry,
}: {
  coupon: Card;
  title: string;
  ends: string | null;
  reveal: Reveal;
  titleId: string;
  onClose: () => void;
  onRetry: () => void;
}) {
  const i18n = useI18n();
  const { t, cashbackRate } = i18n;
  const [copied, setCopied] = useState(false);
  const code = useRef<HTMLElement>(null);
  const offer = discount(i18n, coupon);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an old browser, a refused permission): the code is selected to copy by hand.
      const range = document.createRange();
      if (code.current) range.selectNodeContents(code.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    }
  }

  return (
    <div className="reveal-panel">
      <div className="reveal-head">
        <StoreMark coupon={coupon} />
        <p className="reveal-store">{coupon.merchant.name}</p>
        <button type="button" className="close" onClick={onClose} aria-label={t('card.close')}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {offer && <p className="discount">{offer}</p>}
      <p id={titleId} className="reveal-title">
        {title}
      </p>
      {coupon.cashback && (
        <p className="reveal-cashback">{t('cashback.earn', { rate: cashbackRate(coupon.cashback) })}</p>
      )}
      {reveal.state === 'shown' ? (
        <>
          {reveal.code !== null && (
            <>
              <p className="reveal-hint">{t('card.useAtCheckout', { store: coupon.merchant.name })}</p>
              <div className="code-box">
                <code ref={code} data-testid="coupon-code">
                  {reveal.code}
                </code>
                <button type="button" onClick={() => void copy(reveal.code!)} aria-live="polite">
                  {copied ? t('card.copied') : t('card.copy')}
                </button>
              </div>
            </>
          )}
          {/* Through the click-out, which records the click the store's postback names later. */}
          {reveal.merchantUrl && <GoToStore coupon={coupon} />}
          {reveal.code !== null && <Vote couponId={coupon.id} />}
        </>
      ) : reveal.state === 'failed' ? (
        <>
          <p className="error" role="alert">
            {t('card.revealFailed')}
          </p>
          <button type="button" onClick={onRetry}>
            {t('card.tryAgain')}
          </button>
        </>
      ) : (
        <p className="status" aria-live="polite">
          {t('common.loading')}
        </p>
      )}
      {ends && <p className="reveal-ends">{ends}</p>}
    </div>
  );
}

/** "Did this code work?": one answer a day per visitor, which shapes the coupon's success rate. */
function Vote({ couponId }: { couponId: number }) {
  const { t } = useI18n();
  const [vote, setVote] = useState<'asking' | 'sending' | 'thanked' | 'failed'>('asking');

  async function answer(worked: boolean) {
    setVote('sending');
    try {
      await api(`/api/coupons/${couponId}/votes`, { method: 'POST', body: { worked } });
      setVote('thanked');
    } catch {
      setVote('failed');
    }
  }

  return (
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
  );
}
