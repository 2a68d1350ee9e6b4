/** Image rules of every upload in the product (spec §5, §8): one source for the API and the forms. */
export const IMAGE_RULES = {
  /** Default largest upload; the API's MEDIA_MAX_MB setting may change it. */
  defaultMaxMegabytes: 5,
  /** Largest accepted image in pixels per side. */
  maxSide: 8000,
  /**
   * Largest accepted image in pixels: decoding costs memory and CPU by the pixel, not by the byte
   * (an 8000 × 8000 PNG of 187 KB took about 2 s of CPU per resized width).
   */
  maxMegapixels: 40,
  accepted: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'],
  notImage: 'Selected file is not an image.',
  tooLarge: (megabytes: number) => `The image must be at most ${megabytes} MB.`,
  tooWide: (side: number) => `The image must be at most ${side} × ${side} pixels.`,
  tooManyPixels: (megapixels: number) => `The image must be at most ${megapixels} megapixels.`,
} as const;

/**
 * The widths a resized copy of an uploaded image may have (`/api/media/:id?w=`): a fixed set, so
 * nobody can fill the store with variants; the web apps' `srcset`s offer exactly these.
 */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920] as const;
