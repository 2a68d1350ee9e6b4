import type { CashbackRate } from '../../rules/cashback.js';
import type { CouponTexts } from '../../rules/coupons.js';

/**
 * The public coupon reads' answers, as JSON carries them (dates as ISO strings). Types only and
 * without dependencies, so both web apps import them (type-only) instead of copying them.
 */

/** A coupon as its card shows it (`GET /api/coupons`, the home page's top coupons). */
export interface CouponCard {
  id: number;
  title: string;
  description: string;
  /** The offer's terms and conditions, as its merchant wrote them. */
  terms: string;
  merchantId: number;
  /** The store's name as its page shows it. */
  merchantName: string;
  merchantUrl: string | null;
  /** The store the coupon belongs to: its page is `/store/<slug>`. */
  merchant: { id: number; name: string; slug: string; logoUrl: string | null };
  imageUrl: string | null;
  /** Null when the offer gives none (deals of networks' feeds): the card leads with its title. */
  percentage: number | null;
  discountValue: number | null;
  /** Null for an open-ended coupon (live until it is ended). */
  expiresAt: string | null;
  /** False for a deal: the reveal gives no code, only the way to the store. */
  hasCode: boolean;
  /** Offered on this site only: an "Exclusive" badge. */
  exclusive: boolean;
  /** The title, description and terms in Hindi and Telugu where given (`couponTextIn` picks). */
  texts: CouponTexts;
  categoryIds: number[];
  /** Shoppers' "did this code work?" votes (one per visitor a day), and the share that said yes (0-100) once there are enough. */
  votes: number;
  successRate: number | null;
  /** Reveals since midnight in India. */
  usedToday: number;
  /** The latest of the approval and the last "worked" vote. */
  verifiedAt: string;
  /**
   * "+ up to" this cashback: the best rate a purchase through this coupon can earn (its own rate,
   * else its store's base, or a category rate of its store above it); null when none gives anything.
   */
  cashback: CashbackRate | null;
}

/** A category of the shop front (`GET /api/categories`, in the order the admins gave them). */
export interface Category {
  id: number;
  name: string;
}

/** A page of coupons with the count of all that match. */
export interface CouponPage {
  data: CouponCard[];
  total: number;
}

/** A placement slot as the back-office shows it (`/api/admin/slots`, `/api/merchant/slots`). */
export interface SlotAnswer {
  id: number;
  name: string;
  kind: 'free' | 'paid';
  /** Rupees as a decimal string ("499.00"); null for a free slot. */
  price: string | null;
  capacity: number;
}
