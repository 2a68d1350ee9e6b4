/**
 * Addresses of the older client (spec §2) that a shopper may have bookmarked, matched without
 * regard to case, and where they live now.
 */
export const LEGACY_ROUTES: Record<string, string> = {
  '/usersignin': '/sign-in',
  '/login': '/sign-in',
  '/carousel': '/',
  '/banners': '/',
  '/banner': '/',
  '/topcoupons': '/',
  '/footer': '/',
  '/header': '/',
  '/sidemenu': '/',
  '/proxy': '/',
  '/dummy': '/',
  '/catagories': '/categories',
  '/fashqueselectcatagirys': '/categories',
  '/topoffers': '/top-offers',
  '/topofferspublickbanner': '/top-offers',
  '/bestofferspage': '/offers',
  '/faqs': '/faq',
  '/termsofservice': '/terms',
  '/aboutus': '/about',
  '/privacypolicy': '/privacy',
  '/fashiquepopularity': '/coupons?sort=popular',
  '/newest': '/coupons?sort=newest',
  '/admin': '/account',
  '/user': '/account',
  '/useradmin': '/account',
  '/refereluserpage': '/account/referrals',
  '/myearnings': '/account/earnings',
};

/** The new address of an old one (`/merchantUrl/9` → `/store/9`), or undefined. */
export function legacyTarget(path: string): string | undefined {
  const lower = path.toLowerCase().replace(/\/+$/, '') || '/';
  const store = /^\/merchanturl\/(\d+)$/.exec(lower);
  if (store) return `/store/${store[1]}`;
  return LEGACY_ROUTES[lower];
}
