/**
 * Following a store and its alert mails: limits and messages shared by the API and the site.
 */
export const STORE_FOLLOWS = {
  /** Stores one account may follow: enough for every shop one buys from, not a way to mail the site. */
  maxPerAccount: 200,
  merchantIdRequired: 'merchantId is the number of a store.',
  notFound: 'Store not found.',
  tooMany: 'You can follow at most 200 stores. Unfollow one first.',
  followed: 'You now follow this store. We will mail you when it has a new offer.',
  /** Followed without the store-alerts consent: no mail goes until it is given. */
  followedWithoutAlerts:
    'You now follow this store. To get its new offers by mail, turn on store alerts in Your consents.',
  unfollowed: 'You no longer follow this store.',
} as const;

export const STORE_ALERTS = {
  /** Offers of one store in one alert mail; more are summed up with a link to the store. */
  maxOffersPerMail: 10,
  /** Mailed alerts are kept this long (which offer was announced to whom), then deleted. */
  keepDays: 30,
} as const;

/** A followed store, as `GET /api/me/follows` lists it and the account area shows it. */
export interface FollowedStore {
  merchantId: number;
  slug: string;
  storeName: string;
  logoUrl: string | null;
  liveCoupons: number;
  followedAt: string;
}
