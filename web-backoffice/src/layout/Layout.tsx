import type { ReactNode } from 'react';
import { useEffect } from 'react';
import {
  AppBar,
  Layout as RaLayout,
  UserMenu,
  useGetIdentity,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { rememberLocale } from '../i18n/i18nProvider';
import { AppMenu } from './AppMenu';

/** Keeps the chosen language for the next visit. */
export function RememberLocale() {
  const [locale] = useLocaleState();
  useEffect(() => rememberLocale(locale), [locale]);
  return null;
}

/**
 * Names what react-admin 5.15 leaves unnamed: it puts the row checkbox's aria-label on the
 * checkbox's wrapper (where it is not allowed) instead of the input, and its loading spinners
 * have no name. Runs on every change of the page.
 */
export function NameUnnamedControls() {
  const translate = useTranslate();
  const loading = translate('ra.page.loading');
  useEffect(() => {
    const fix = () => {
      for (const wrapper of document.querySelectorAll('.select-item[aria-label]')) {
        const input = wrapper.querySelector('input');
        if (!input) continue;
        input.setAttribute('aria-label', wrapper.getAttribute('aria-label') ?? '');
        wrapper.removeAttribute('aria-label');
      }
      for (const spinner of document.querySelectorAll(
        '[role=progressbar]:not([aria-label]):not([aria-labelledby])',
      )) {
        spinner.setAttribute('aria-label', loading);
      }
    };
    const observer = new MutationObserver(fix);
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['aria-label'] });
    fix();
    return () => observer.disconnect();
  }, [loading]);
  return null;
}

/** The user menu's accessible name is the name it shows (WCAG 2.5.3, label in name). */
const NamedUserMenu = () => {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? String(identity.fullName) : 'ra.auth.user_menu'} />;
};

const OffersAppBar = () => <AppBar userMenu={<NamedUserMenu />} />;

export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout menu={AppMenu} appBar={OffersAppBar}>
    <RememberLocale />
    <NameUnnamedControls />
    {children}
  </RaLayout>
);
