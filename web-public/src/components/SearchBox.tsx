import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, type Suggestions } from '../api';
import { CONTROL_CHARACTERS, COUPON_LISTING } from '../forms/rules';
import { useI18n } from '../i18n';

/** Wait after a key before asking: one request per pause in typing, not per letter. */
const TYPING_PAUSE_MS = 150;

/**
 * The header's search: stores, categories and coupons suggested as one types (links: Tab or the
 * down arrow moves into them, Escape closes them), and the whole search on Enter.
 */
export function SearchBox() {
  const { t, msg, lang, cashbackRate } = useI18n();
  const [, navigate] = useLocation();
  const [text, setText] = useState('');
  const [found, setFound] = useState<Suggestions | undefined>();
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLElement>(null);

  useEffect(() => {
    const q = text.replace(CONTROL_CHARACTERS, '').trim().slice(0, COUPON_LISTING.maxSearchLength);
    if (!q) {
      setFound(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api<Suggestions>(`/api/search/suggest?q=${encodeURIComponent(q)}`)
        .then((suggestions) => live && setFound(suggestions))
        .catch(() => live && setFound(undefined));
    }, TYPING_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = text.trim();
    if (!q) return;
    setOpen(false);
    navigate(`/coupons?q=${encodeURIComponent(q)}`);
  }

  function keys(event: KeyboardEvent) {
    if (event.key === 'Escape') setOpen(false);
    if (event.key === 'ArrowDown' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      box.current?.querySelector<HTMLAnchorElement>('.suggestions a')?.focus();
    }
  }

  const close = () => setOpen(false);
  const any = found && found.stores.length + found.categories.length + found.coupons.length > 0;
  return (
    <search
      className="search-box"
      ref={box}
      onKeyDown={keys}
      onBlur={(event) => {
        if (!box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <form onSubmit={submit}>
        <label htmlFor={id} className="visually-hidden">
          {t('search.label')}
        </label>
        <input
          id={id}
          type="search"
          value={text}
          placeholder={t('search.placeholder')}
          maxLength={COUPON_LISTING.maxSearchLength}
          autoComplete="off"
          aria-describedby={`${id}-found`}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
        />
        <button type="submit">{t('search.submit')}</button>
      </form>
      <p id={`${id}-found`} className="visually-hidden" aria-live="polite">
        {open && found
          ? t('search.found', { count: found.stores.length + found.categories.length + found.coupons.length })
          : ''}
      </p>
      {open && any && (
        <div className="suggestions">
          {found.stores.length > 0 && (
            <section aria-label={t('search.stores')}>
              <h2>{t('search.stores')}</h2>
              <ul>
                {found.stores.map((store) => (
                  <li key={store.merchantId}>
                    <Link href={`/store/${store.slug}`} onClick={close}>
                      {store.name}
                      {store.cashback && (
                        <span className="muted">
                          {' '}
                          · {t('cashback.summary', { rate: cashbackRate(store.cashback) })}
                        </span>
                      )}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {found.categories.length > 0 && (
            <section aria-label={t('search.categories')}>
              <h2>{t('search.categories')}</h2>
              <ul>
                {found.categories.map((category) => (
                  <li key={category.id}>
                    <Link href={`/coupons/${category.slug}`} onClick={close}>
                      {msg(category.name)}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {found.coupons.length > 0 && (
            <section aria-label={t('search.coupons')}>
              <h2>{t('search.coupons')}</h2>
              <ul>
                {found.coupons.map((coupon) => {
                  const title = (lang === 'en' ? undefined : coupon.titles[lang]) ?? coupon.title;
                  return (
                    <li key={coupon.id}>
                      <Link href={`/coupons?q=${encodeURIComponent(title)}`} onClick={close}>
                        {title} <span className="muted">· {coupon.merchant.name}</span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
        </div>
      )}
    </search>
  );
}
