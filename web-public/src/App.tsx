import { type ComponentType, createElement, lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { Redirect, Router, useLocation, useSearch } from 'wouter';
import { AuthProvider, useAuth } from './auth';
import { Layout } from './components/Layout';
import { I18nProvider, type Language, useI18n } from './i18n';
import { NOT_FOUND_KEY, type PageData, PageDataProvider, useInitialData } from './page-data';
import { Home } from './pages/Home';
import { matchPage, type PageMatch } from './routes';
import { languageBase, splitLanguage } from './site';

/**
 * A page in its own chunk, loaded when first needed. Once loaded it renders at once: the server
 * loads the page before rendering and the browser before hydrating, so neither waits on a
 * Suspense boundary (which would leave scripts in the page and a hole until the chunk came).
 */
function lazyPage<P extends object>(
  load: () => Promise<{
    default: ComponentType<P>;
    /** What else the page needs in a language before it can render (its texts). */
    preload?: (lang: Language) => Promise<void>;
  }>,
) {
  let loaded: ComponentType<P> | undefined;
  const load_ = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load_);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per page at module load, never during a render
  const Page = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy, props));
  return Object.assign(Page, {
    preload: (lang: Language) => load_().then((module) => module.preload?.(lang)),
  });
}

const CouponsPage = lazyPage(() => import('./pages/CouponsPage'));
const StorePage = lazyPage(() => import('./pages/StorePage'));
const StoresPage = lazyPage(() => import('./pages/StoresPage'));
const InfoPage = lazyPage(() => import('./pages/InfoPage'));
const ContactPage = lazyPage(() => import('./pages/ContactPage'));
const GrievancePage = lazyPage(() => import('./pages/GrievancePage'));
const RegisterPage = lazyPage(() => import('./pages/RegisterPage'));
const SignInPage = lazyPage(() => import('./pages/SignInPage'));
const AccountPage = lazyPage(() => import('./pages/AccountPage'));
const AccountSecurityPage = lazyPage(() => import('./pages/AccountSecurityPage'));
const ForgotPasswordPage = lazyPage(() => import('./pages/ForgotPasswordPage'));
const ResetPasswordPage = lazyPage(() => import('./pages/ResetPasswordPage'));
const NotFound = lazyPage(() => import('./pages/NotFound'));

const PAGES: Partial<Record<PageMatch['page'], { preload(lang: Language): Promise<void> }>> = {
  listing: CouponsPage,
  store: StorePage,
  stores: StoresPage,
  info: InfoPage,
  contact: ContactPage,
  grievance: GrievancePage,
  register: RegisterPage,
  signIn: SignInPage,
  account: AccountPage,
  accountSecurity: AccountSecurityPage,
  forgotPassword: ForgotPasswordPage,
  resetPassword: ResetPasswordPage,
  notFound: NotFound,
};

/** Loads the chunk of the page at an address (within its language), and what it needs in that language. */
export function preloadPage(path: string, lang: Language): Promise<void> {
  return PAGES[matchPage(path).page]?.preload(lang) ?? Promise.resolve();
}

const NO_DATA: PageData = {};

/**
 * The whole site. The address decides the language (`/hi/...`, `/te/...`, else English) and the
 * page; `data` holds what the server rendered the first page with.
 */
export function Site({ data, ssrPath }: { data: PageData; ssrPath?: string }) {
  // Marks the page as live (hydrated or rendered): what a browser test waits for before it acts, as
  // a click on server-rendered HTML before then does nothing and a node added then is dropped.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    <Router ssrPath={ssrPath}>
      <Localised data={data} />
    </Router>
  );
}

function Localised({ data }: { data: PageData }) {
  const [path] = useLocation();
  const search = useSearch();
  const address = `${path}?${search}`;
  // The server's answers hold for the address it rendered; after the first navigation, pages fetch.
  const first = useRef(address);
  const left = useRef(false);
  if (address !== first.current) left.current = true;
  const { lang } = splitLanguage(path);
  return (
    <I18nProvider lang={lang}>
      <AuthProvider>
        <PageDataProvider data={left.current ? NO_DATA : data}>
          <Router base={languageBase(lang)}>
            <App />
          </Router>
        </PageDataProvider>
      </AuthProvider>
    </I18nProvider>
  );
}

function Loading() {
  const { t } = useI18n();
  return (
    <p className="status" role="status">
      {t('common.loading')}
    </p>
  );
}

/** Signed-out visitors go to sign-in and come back here afterwards. */
function SignedIn({ children }: { children: ReactNode }) {
  const { me } = useAuth();
  const [location] = useLocation();
  if (me === undefined) return <Loading />;
  if (me === null || me.role !== 'user') {
    return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} replace />;
  }
  return <>{children}</>;
}

function Page({ match }: { match: PageMatch }) {
  switch (match.page) {
    case 'home':
      return <Home />;
    case 'listing':
      return <CouponsPage kind={match.kind} categorySlug={match.categorySlug} />;
    case 'store':
      return <StorePage address={match.address} />;
    case 'stores':
      return <StoresPage />;
    case 'info':
      return <InfoPage page={match.info} />;
    case 'contact':
      return <ContactPage />;
    case 'grievance':
      return <GrievancePage />;
    case 'register':
      return <RegisterPage />;
    case 'signIn':
      return <SignInPage />;
    case 'account':
      return (
        <SignedIn>
          <AccountPage section={match.section} earningId={match.earningId} />
        </SignedIn>
      );
    case 'accountSecurity':
      return (
        <SignedIn>
          <AccountSecurityPage />
        </SignedIn>
      );
    case 'forgotPassword':
      return <ForgotPasswordPage />;
    case 'resetPassword':
      return <ResetPasswordPage />;
    case 'redirect':
      return <Redirect to={match.to} replace />;
    case 'notFound':
      return <NotFound />;
  }
}

export function App() {
  const [location] = useLocation();
  const notFound = useInitialData<boolean>(NOT_FOUND_KEY);
  const match: PageMatch = notFound ? { page: 'notFound' } : matchPage(location);
  return (
    <Layout>
      <Suspense fallback={<Loading />}>
        <Page key={location} match={match} />
      </Suspense>
    </Layout>
  );
}
