/**
 * Home-page content (spec §2 Admin area, §5 "Other", §8, §9): positions, defaults, limits and
 * messages, one source for the API and the back-office forms.
 */

import type { SiteLanguage } from './addresses.js';

/** Where a banner shows: categories page, top offers, best offers, and the home page's sides. */
export const BANNER_POSITIONS = ['cat', 'Tc', 'Bo', 'left', 'right'] as const;
export type BannerPosition = (typeof BANNER_POSITIONS)[number];

export const SEASONAL_OFFER_SLOTS = [1, 2, 3, 4] as const;

export const FLASH_CONTENT_TYPES = ['text', 'image'] as const;
export type FlashContentType = (typeof FLASH_CONTENT_TYPES)[number];

export const CONTENT_DEFAULTS = {
  flashText: 'Get up to 50% OFF new season styles, Limited Time Only',
  flashContentType: 'text' as FlashContentType,
  flashPosition: 'toFlash',
  bestOfferBanner: 'Bo',
} as const;

export const CONTENT_LIMITS = {
  flashTextMaxLength: 200,
  nameMaxLength: 100,
  /** A hero's, banner's or seasonal offer's title, drawn as text over or under its picture. */
  titleMaxLength: 80,
  /** What a screen reader says of a picture; longer descriptions are read as a burden. */
  altTextMaxLength: 150,
  positionMaxLength: 40,
  merchantUrlMaxLength: 2048,
  maxSortOrder: 10_000,
  /** Top-coupon tiles on the home page (spec §9: 16, 12 shown by default). */
  homeTopCoupons: 16,
} as const;

export const CONTENT_MESSAGES = {
  merchantUrlRequired: 'Merchant URL is required.',
  merchantUrlInvalid: 'Enter a valid website address (http or https).',
  imageRequired: 'Please select an image file first.',
  bestOfferImageRequired: '⚠️ Please select a file first',
  seasonalAllRequired: 'All fields are required!',
  seasonalSlot: 'Choose a seasonal offer slot from 1 to 4.',
  positionInvalid: `Position is one of ${BANNER_POSITIONS.join(', ')}.`,
  positionRequired: 'Position is a name of at most 40 characters.',
  nameRequired: 'Name is required.',
  typeRequired: 'Type is required.',
  frameRequired: 'Frame is required.',
  flashTextRequired: 'Flash text is required.',
  flashTextTooLong: 'Flash text must be at most 200 characters.',
  flashContentType: `Content type is ${FLASH_CONTENT_TYPES.join(' or ')}.`,
  flashImageRequired: 'An image flash text needs an image.',
  sortOrder: 'Order is a whole number from 0 to 10000.',
  flag: 'Choose yes or no.',
  titleRequired: 'Title (English) is required.',
  altTextRequired: 'Alt text (English) is required.',
  textInvalid: 'Enter the text as words.',
  englishFirst: 'Give the English text too: it is shown wherever a translation is missing.',
  // What the back-office shows after an upload (spec §8).
  heroUploaded: '✅ Image uploaded successfully.',
  heroFailed: '❌ Upload failed.',
  seasonalUploaded: '✅ Upload successful!',
  seasonalFailed: '❌ Upload failed: ',
  bannerUploaded: 'Upload successful.',
  bannerFailed: 'Upload failed. Check console for details.',
  bestOfferFailed: '❌ Upload failed',
  flashSaved: '✅ Saved successfully',
  flashFailed: '❌ Upload failed: ',
  imagesFailed: 'Failed to load images',
} as const;

/**
 * A text an admin gives the home page: in English (required, the fallback), Hindi and Telugu
 * (optional), as a field in English (`title`) and a field per translation (`titleHi`, `titleTe`):
 * the same names in the admin API, the back-office forms and the public document.
 */
export type Translated<F extends string> = { [K in TranslatedFieldName<F>]?: string | null };
export type TranslatedFieldName<F extends string> = F | `${F}Hi` | `${F}Te`;

/** The field of a text in a language: `title` in English, `titleHi` in Hindi, `titleTe` in Telugu. */
export function translatedField<F extends string>(field: F, lang: SiteLanguage): TranslatedFieldName<F> {
  return (lang === 'en' ? field : `${field}${lang === 'hi' ? 'Hi' : 'Te'}`) as TranslatedFieldName<F>;
}

/** A text in the visitor's language, else in English; '' when there is none. */
export function textIn<F extends string>(
  record: Translated<F> | null | undefined,
  field: F,
  lang: SiteLanguage,
): string {
  return record?.[translatedField(field, lang)] || record?.[field] || '';
}

/**
 * Merchant links typed without a scheme ("www.glow.in") are taken as https, as the older client
 * displayed them.
 */
export function normaliseMerchantUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/+/, '')}`;
}
