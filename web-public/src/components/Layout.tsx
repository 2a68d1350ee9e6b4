import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../api';
import { useAuth } from '../auth';
import { CATEGORY_SLUGS } from '../forms/rules';
import { validateNewsletter } from '../forms/validate';
import { LANGUAGES, type Language, loadLanguage, rememberLanguage, useI18n } from '../i18n';
import { localePath } from '../site';
import { SearchBox } from './SearchBox';

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const [location] = useLocation();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // A new page moves focus to its content, as a full page load would for screen readers.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of address
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [location]);

  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <Header />
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}

/**
 * The site's header: on a phone one row of at most 64 px (menu button, logo, search button,
 * account), the navigation and languages in the menu's panel and the search box in its own; on
 * wider screens everything in view. The category strip follows it.
 */
function Header() {
  const { t, msg } = useI18n();
  const [location] = useLocation();
  const [panel, setPanel] = useState<'menu' | 'search' | null>(null);
  const bar = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const searchId = useId();
  const links: Array<[string, string]> = [
    ['/', t('nav.home')],
    ['/categories', t('nav.categories')],
    ['/coupons', t('nav.coupons')],
    ['/top-offers', t('nav.topOffers')],
    ['/offers', t('nav.offers')],
    ['/stores', t('nav.stores')],
  ];

  // A new page closes the phone's panels.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of address
  useEffect(() => setPanel(null), [location]);

  // Escape or a press outside the header closes a panel; an opened search box takes the focus.
  useEffect(() => {
    if (!panel) return;
    if (panel === 'search') document.getElementById(searchId)?.querySelector('input')?.focus();
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent ? event.key === 'Escape' : !bar.current?.contains(event.target as Node)
      )
        setPanel(null);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [panel, searchId]);

  const toggle = (name: 'menu' | 'search') => setPanel(panel === name ? null : name);
  return (
    <>
      <header className="site-header">
        <div className="bar" ref={bar}>
          <button
            type="button"
            className="icon-button phone-only"
            aria-expanded={panel === 'menu'}
            aria-controls={menuId}
            aria-label={t('nav.menu')}
            onClick={() => toggle('menu')}
          >
            <Icon path="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
          </button>
          <Link href="/" className="brand" aria-label={t('frame.logo')}>
            <Logo />
            <span aria-hidden="true">{t('brand')}</span>
          </Link>
          <div id={menuId} className={panel === 'menu' ? 'site-menu open' : 'site-menu'}>
            <nav aria-label={t('nav.main')}>
              <ul className="nav-links">
                {links.map(([href, label]) => (
                  <li key={href} className={href === '/' || href === '/categories' ? 'menu-only' : undefined}>
                    <Link href={href} aria-current={location === href ? 'page' : undefined}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <LanguageSwitcher />
            <SignOut className="phone-only" />
          </div>
          <div id={searchId} className={panel === 'search' ? 'search-slot open' : 'search-slot'}>
            <SearchBox />
          </div>
          <button
            type="button"
            className="icon-button phone-only search-button"
            aria-expanded={panel === 'search'}
            aria-controls={searchId}
            aria-label={t('nav.openSearch')}
            onClick={() => toggle('search')}
          >
            <Icon path="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z" />
          </button>
          <AccountMenu />
        </div>
      </header>
      <nav aria-label={t('nav.shopByCategory')} className="category-bar">
        <ul>
          {CATEGORY_SLUGS.map(({ name, slug }) => (
            <li key={slug}>
              <Link
                href={`/coupons/${slug}`}
                aria-current={location === `/coupons/${slug}` ? 'page' : undefined}
              >
                {msg(name)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

/** A 24-px icon of one path, drawn in the text's colour; its button carries the name. */
function Icon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={path} />
    </svg>
  );
}

const PERSON_ICON = 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4 0-8 2-8 5v2h16v-2c0-3-4-5-8-5z';

/** Ends the session and goes home; shown beside the name on wide screens, in the menu on a phone. */
function SignOut({ className }: { className: string }) {
  const { t } = useI18n();
  const { me, signOut } = useAuth();
  const [, navigate] = useLocation();
  if (!me) return null;
  return (
    <button
      type="button"
      className={`link-button ${className}`}
      onClick={async () => {
        await signOut();
        navigate('/');
      }}
    >
      {t('nav.signOut')}
    </button>
  );
}

/** Moves to the same page in the chosen language, which is also remembered for `/`. */
function LanguageSwitcher() {
  const { t, lang } = useI18n();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const id = useId();
  async function choose(code: Language) {
    await loadLanguage(code);
    rememberLanguage(code);
    navigate(`~${localePath(code, location)}${search ? `?${search}` : ''}`);
  }
  return (
    <div className="language">
      <label htmlFor={id} className="visually-hidden">
        {t('nav.language')}
      </label>
      <select id={id} value={lang} onChange={(event) => void choose(event.target.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The site's mark: a price tag with a rupee sign. */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false" className="logo">
      <path
        fill="currentColor"
        d="M3 5a2 2 0 0 1 2-2h10.2a2 2 0 0 1 1.4.6l12.8 12.8a2 2 0 0 1 0 2.8l-10.2 10.2a2 2 0 0 1-2.8 0L3.6 16.6A2 2 0 0 1 3 15.2z"
      />
      <circle cx="9" cy="9" r="2.2" fill="#fff" />
      <path
        fill="#fff"
        d="M13 13.5h8v1.6h-2.6c.3.4.5.9.6 1.4H21v1.6h-2c-.3 1.6-1.7 2.7-3.6 2.8l3.4 3.6h-2.3l-3.4-3.7v-1.5h1.6c1 0 1.8-.5 2-1.2H13v-1.6h3.6c-.3-.6-1-1-2-1H13z"
      />
    </svg>
  );
}

function AccountMenu() {
  const { t } = useI18n();
  const { me } = useAuth();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !menu.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  if (me === undefined) return <div className="account-menu" />;
  if (me) {
    return (
      <div className="account-menu signed-in">
        <Link href={me.role === 'user' ? '/account' : '/'} className="who">
          <span className="phone-only">
            <Icon path={PERSON_ICON} />
          </span>
          <span className="visually-hidden">{t('nav.signedInAs')} </span>
          <span className="account-label">{me.name}</span>
        </Link>
        <SignOut className="wide-only" />
      </div>
    );
  }
  return (
    <div className="account-menu" ref={menu}>
      <button
        type="button"
        className="account-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        <span className="phone-only">
          <Icon path={PERSON_ICON} />
        </span>
        <span className="account-label">{t('nav.account')}</span>
      </button>
      <ul id={menuId} className="menu" hidden={!open}>
        <li>
          <Link href="/sign-in" onClick={() => setOpen(false)}>
            {t('nav.signIn')}
          </Link>
        </li>
        <li>
          <Link href="/register" onClick={() => setOpen(false)}>
            {t('nav.register')}
          </Link>
        </li>
      </ul>
    </div>
  );
}

function Footer() {
  const { t } = useI18n();
  return (
    <footer className="site-footer">
      <div className="footer-columns">
        <nav aria-labelledby="footer-help">
          <h2 id="footer-help">{t('footer.help')}</h2>
          <ul>
            <li>
              <Link href="/faq">{t('footer.faq')}</Link>
            </li>
            <li>
              <Link href="/contact">{t('footer.contact')}</Link>
            </li>
            <li>
              <Link href="/account/referrals">{t('footer.referFriends')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company">{t('footer.company')}</h2>
          <ul>
            <li>
              <Link href="/about">{t('footer.about')}</Link>
            </li>
            <li>
              <Link href="/careers">{t('footer.careers')}</Link>
            </li>
            <li>
              <Link href="/terms">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link href="/privacy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link href="/contact">{t('footer.contact')}</Link>
            </li>
            <li>
              <Link href="/grievance">{t('footer.grievance')}</Link>
            </li>
          </ul>
        </nav>
        <Newsletter />
      </div>
      <PageTools />
      <p className="copyright">{t('footer.rights', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}

function Newsletter() {
  const { t, msg } = useI18n();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<'idle' | 'sending' | 'done' | 'failed'>('idle');
  const [serverError, setServerError] = useState<string>();
  const error = serverError ?? (touched ? validateNewsletter(email) : undefined);

  async function subscribe(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (validateNewsletter(email)) return;
    setState('sending');
    try {
      await api('/api/newsletter', { method: 'POST', body: { email: email.trim() } });
      setState('done');
      setEmail('');
      setTouched(false);
    } catch (problem) {
      if (problem instanceof ApiError && problem.status === 400 && problem.errors.email?.[0]) {
        setServerError(problem.errors.email[0]);
        setState('idle');
      } else if (problem instanceof ApiError && problem.status === 429) {
        // Too many subscriptions from this network: the API says when to try again.
        setServerError(problem.message);
        setState('idle');
      } else setState('failed');
    }
  }

  return (
    <form className="newsletter" onSubmit={subscribe} noValidate aria-labelledby="newsletter-title">
      <h2 id="newsletter-title">{t('footer.newsletterTitle')}</h2>
      <p>{t('footer.newsletterHint')}</p>
      <label htmlFor="newsletter-email">{t('footer.email')}</label>
      <div className="inline-form">
        <input
          id="newsletter-email"
          type="email"
          autoComplete="email"
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'newsletter-error' : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setTouched(true);
            setServerError(undefined);
          }}
        />
        <button type="submit" disabled={state === 'sending'}>
          {t('footer.subscribe')}
        </button>
      </div>
      {error && (
        <p id="newsletter-error" className="error" aria-live="polite">
          {msg(error)}
        </p>
      )}
      <p className="form-status" role="status">
        {state === 'done' ? t('footer.subscribed') : state === 'failed' ? t('footer.subscribeFailed') : ''}
      </p>
    </form>
  );
}

/**
 * Back to the top, and the chat: at the foot of the page, where they cover nothing; they float at
 * the window's corner only on screens wide enough for them to sit beside the content (styles.css).
 */
function PageTools() {
  const { t } = useI18n();
  return (
    <div className="page-tools">
      <ScrollToTop />
      <Link href="/contact" className="chat-link" aria-label={t('frame.chat')} title={t('frame.chat')}>
        <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 6v2h2v-2H7zm4 0v2h2v-2h-2zm4 0v2h2v-2h-2z"
          />
        </svg>
      </Link>
    </div>
  );
}

function ScrollToTop() {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > 300);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="to-top"
      aria-label={t('frame.toTop')}
      title={t('frame.toTop')}
      onClick={() => {
        const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
        document.getElementById('main')?.focus({ preventScroll: true });
      }}
    >
      <span aria-hidden="true">↑</span>
    </button>
  );
}
