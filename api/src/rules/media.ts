/** Image rules of every upload in the product (spec §5, §8): one source for the API and the forms. */
export const IMAGE_RULES = {
  /** Default largest upload; the API's MEDIA_MAX_MB setting may change it. */
  defaultMaxMegabytes: 5,
  /** Largest accepted image in pixels per side. */
  maxSide: 8000,
  accepted: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'],
  notImage: 'Selected file is not an image.',
  tooLarge: (megabytes: number) => `The image must be at most ${megabytes} MB.`,
  tooWide: (side: number) => `The image must be at most ${side} × ${side} pixels.`,
} as const;
