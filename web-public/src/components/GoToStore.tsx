import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { CouponCard } from '../api';
import { useAuth } from '../auth';
import { clickOutPath } from '../forms/rules';
import { useI18n } from '../i18n';

/**
 * The way to the shop through the click-out. Where the coupon earns cashback, a visitor who is not
 * signed in as a shopper is first asked, in a dialog: sign in to earn it (and come back to the
 * store's page), or go on without it. The click-out itself always redirects; this is only a step
 * before it in the page.
 */
export function GoToStore({ coupon }: { coupon: CouponCard }) {
  const { t, cashbackRate } = useI18n();
  const { me } = useAuth();
  const [choosing, setChoosing] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const label = t('card.goToStore', { store: coupon.merchant.name });
  const href = clickOutPath(coupon.id);

  // Opened once its content is in the page, so its first choice takes the focus; closing it gives
  // the focus back to the button that opened it.
  useEffect(() => {
    const shown = dialog.current;
    if (choosing && shown && !shown.open) shown.showModal();
    if (!choosing && shown?.open) shown.close();
  }, [choosing]);

  if (!coupon.cashback || me?.role === 'user') {
    return (
      <a className="button primary go-to-store" href={href} target="_blank" rel="noopener">
        {label}
      </a>
    );
  }
  const back = coupon.merchant.slug ? `/store/${coupon.merchant.slug}` : '/';
  return (
    <>
      <button
        type="button"
        className="primary go-to-store"
        aria-haspopup="dialog"
        onClick={() => setChoosing(true)}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        className="reveal-dialog cashback-choice"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-hint`}
        onClose={(event) => {
          // React hands a dialog's close to the dialogs around it too: the reveal stays open.
          event.stopPropagation();
          setChoosing(false);
        }}
      >
        {choosing && (
          <div className="reveal-panel">
            <h2 id={`${id}-title`} className="reveal-title">
              {t('cashback.choiceTitle', { rate: cashbackRate(coupon.cashback) })}
            </h2>
            <p id={`${id}-hint`} className="reveal-hint">
              {t('cashback.choiceHint', { store: coupon.merchant.name })}
            </p>
            <Link className="button primary go-to-store" href={`/sign-in?next=${encodeURIComponent(back)}`}>
              {t('cashback.signIn')}
            </Link>
            <a
              className="button go-to-store"
              href={href}
              target="_blank"
              rel="noopener"
              onClick={() => setChoosing(false)}
            >
              {t('cashback.continue')}
            </a>
          </div>
        )}
      </dialog>
    </>
  );
}
