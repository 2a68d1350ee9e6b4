import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { ForgotPasswordPage, ResetPasswordPage } from './account/PasswordPages';
import { ProfilePage } from './account/ProfilePage';
import { ReferralPage } from './account/ReferralPage';
import { SecurityPage } from './account/SecurityPage';
import { cashbackProposals } from './cashback/CashbackProposals';
import { cashbackRates } from './cashback/CashbackRates';
import { missingCashbackClaims } from './claims/ClaimQueue';
import { banners, bestOfferBanners, flashTexts, heroes, seasonalOffers } from './content';
import { couponReviews } from './coupon-reviews/CouponReviewList';
import { Dashboard } from './dashboard/Dashboard';
import { campaigns, contactMessages, devMailbox, subscribers } from './engagement';
import { feedAdvertisers } from './feeds/FeedAdvertisers';
import { feedCategories } from './feeds/FeedCategories';
import { feedRuns } from './feeds/FeedRuns';
import { feedSources } from './feeds/FeedSources';
import { i18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './login/LoginPage';
import { merchantCategories } from './merchant-categories/MerchantCategories';
import { merchantCoupons } from './merchant-coupons/MerchantCoupons';
import { merchantProducts, simpleProducts } from './merchant-products/MerchantProducts';
import { StorePage } from './merchant-store/StorePage';
import { TrackingPage } from './merchant-tracking/TrackingPage';
import { payouts } from './payouts/PayoutList';
import { dataRequests } from './privacy/DataRequests';
import { grievances } from './privacy/Grievances';
import { productReviews } from './product-reviews/ProductReviewList';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { RegisterPage } from './register/RegisterPage';
import { slots } from './slots/Slots';
import { theme } from './theme';

/** Resources are registered per role: a merchant's app has no admin screen to reach. */
export const App = () => (
  <Admin
    title="offers.title"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    loginPage={LoginPage}
    dashboard={Dashboard}
    layout={Layout}
    theme={theme}
    requireAuth
    disableTelemetry
  >
    {/* Outside the role function so that a visitor without a session reaches it. */}
    <CustomRoutes noLayout>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
    </CustomRoutes>
    {(role) => (
      <>
        {role === 'admin' && (
          <>
            <Resource name="coupon-reviews" {...couponReviews} />
            <Resource name="product-reviews" {...productReviews} />
            <Resource name="payouts" {...payouts} />
            <Resource name="slots" {...slots} />
            <Resource name="feed-sources" {...feedSources} />
            <Resource name="feed-runs" {...feedRuns} />
            <Resource name="feed-advertisers" {...feedAdvertisers} />
            <Resource name="feed-categories" {...feedCategories} />
            <Resource name="stores" />
            <Resource name="cashback-rates" {...cashbackRates} />
            <Resource name="cashback-changes" />
            <Resource name="coupon-cashback-rates" />
            <Resource name="cashback-proposals" {...cashbackProposals} />
            <Resource name="missing-cashback-claims" {...missingCashbackClaims} />
            <Resource name="heroes" {...heroes} />
            <Resource name="banners" {...banners} />
            <Resource name="seasonal-offers" {...seasonalOffers} />
            <Resource name="flash-texts" {...flashTexts} />
            <Resource name="best-offer-banners" {...bestOfferBanners} />
            <Resource name="subscribers" {...subscribers} />
            <Resource name="campaigns" {...campaigns} />
            <Resource name="contact-messages" {...contactMessages} />
            <Resource name="dev-mailbox" {...devMailbox} />
            <Resource name="grievances" {...grievances} />
            <Resource name="data-requests" {...dataRequests} />
          </>
        )}
        {role === 'merchant' && (
          <>
            <Resource name="coupons" {...merchantCoupons} />
            <Resource name="merchant-slots" />
            <Resource name="products" {...merchantProducts} />
            <Resource name="simple-products" {...simpleProducts} />
            <Resource name="merchant-categories" {...merchantCategories} />
            <CustomRoutes>
              <Route path="/store" element={<StorePage />} />
              <Route path="/profile" element={<ProfilePage />} />
              <Route path="/referral" element={<ReferralPage />} />
              <Route path="/tracking" element={<TrackingPage />} />
              <Route path="/security" element={<SecurityPage />} />
            </CustomRoutes>
          </>
        )}
      </>
    )}
  </Admin>
);
