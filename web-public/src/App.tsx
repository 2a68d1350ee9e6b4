import { lazy, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useAuth } from './auth';
import { Layout } from './components/Layout';
import { useI18n } from './i18n';
import { legacyTarget } from './legacy-routes';
import { Home } from './pages/Home';

// Every route but the home page is its own chunk, loaded when first visited.
const CouponsPage = lazy(() => import('./pages/CouponsPage'));
const StorePage = lazy(() => import('./pages/StorePage'));
const InfoPage = lazy(() => import('./pages/InfoPage'));
const ContactPage = lazy(() => import('./pages/ContactPage'));
const RegisterPage = lazy(() => import('./pages/RegisterPage'));
const SignInPage = lazy(() => import('./pages/SignInPage'));
const AccountPage = lazy(() => import('./pages/AccountPage'));
const AccountSecurityPage = lazy(() => import('./pages/AccountSecurityPage'));
const ForgotPasswordPage = lazy(() => import('./pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage'));
const NotFound = lazy(() => import('./pages/NotFound'));

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

function Fallback() {
  const [location] = useLocation();
  const target = legacyTarget(location);
  return target ? <Redirect to={target} replace /> : <NotFound />;
}

export function App() {
  return (
    <Layout>
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path="/" component={Home} />
          <Route path="/coupons">
            <CouponsPage kind="coupons" />
          </Route>
          <Route path="/categories">
            <CouponsPage kind="categories" />
          </Route>
          <Route path="/top-offers">
            <CouponsPage kind="top" />
          </Route>
          <Route path="/offers">
            <CouponsPage kind="best" />
          </Route>
          <Route path="/store/:merchantId">{(params) => <StorePage merchantId={params.merchantId} />}</Route>
          <Route path="/faq">
            <InfoPage page="faq" />
          </Route>
          <Route path="/terms">
            <InfoPage page="terms" />
          </Route>
          <Route path="/about">
            <InfoPage page="about" />
          </Route>
          <Route path="/privacy">
            <InfoPage page="privacy" />
          </Route>
          <Route path="/careers">
            <InfoPage page="careers" />
          </Route>
          <Route path="/contact" component={ContactPage} />
          <Route path="/register" component={RegisterPage} />
          <Route path="/sign-in" component={SignInPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/account/security">
            <SignedIn>
              <AccountSecurityPage />
            </SignedIn>
          </Route>
          <Route path="/account/:section?">
            {(params) => (
              <SignedIn>
                <AccountPage section={params.section} />
              </SignedIn>
            )}
          </Route>
          <Route component={Fallback} />
        </Switch>
      </Suspense>
    </Layout>
  );
}
