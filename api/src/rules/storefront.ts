/**
 * Limits and messages of the merchant storefront (spec §3 "Merchant store", §5 "Product upload",
 * "Category creation", "Save store", §8): one source for the API's validation and the web apps.
 */

/** Rupees with at most two decimals, as typed: "1299", "1299.5", "1299.50". */
export const PRICE_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;

export const STORE_FORM = {
  storeName: {
    maxLength: 100,
    required: 'Store Name is required.',
    tooLong: 'Store Name must be at most 100 characters.',
  },
  storeAddress: { maxLength: 500, tooLong: 'Store Address must be at most 500 characters.' },
  tagline: { maxLength: 150, tooLong: 'Tagline must be at most 150 characters.' },
  aboutDescription: { maxLength: 2000, tooLong: 'About must be at most 2000 characters.' },
  isActive: { invalid: 'Active is true or false.' },
  saved: 'Store saved successfully',
  notFound: 'Store not found.',
  loadFailed: 'Failed to load store',
} as const;

/** The store's images, by form field. */
/** The public A-Z index of stores (`GET /api/stores`). */
export const STORE_LIST = { defaultPerPage: 50, maxPerPage: 500 } as const;

export const STORE_IMAGE_FIELDS = ['merchantLogo', 'landingBanner', 'heroBannerImage'] as const;

export const CATEGORY_FORM = {
  categoryName: {
    maxLength: 100,
    required: 'Category Name is required.',
    tooLong: 'Category Name must be at most 100 characters.',
    taken: 'You already have a category with this name.',
  },
  description: { maxLength: 500, tooLong: 'Description must be at most 500 characters.' },
  isActive: { invalid: 'Active is true or false.' },
  created: 'Category created successfully',
  failed: 'Failed to create category',
  notFound: 'Category not found.',
  hasProducts: 'This category has products and cannot be deleted. Deactivate it instead.',
  noneFound: 'No categories found.',
} as const;

export const PRODUCT_FORM = {
  productName: {
    minLength: 3,
    maxLength: 200,
    required: 'Product Name is required.',
    tooShort: 'Product Name must be at least 3 characters.',
    tooLong: 'Product Name must be at most 200 characters.',
  },
  price: {
    required: 'Price is required.',
    invalid: 'Price must be a number with up to 2 decimals.',
    zero: 'Price must be more than 0.',
  },
  merchantUrl: { invalid: 'Enter a valid website address (http or https).' },
  brand: { maxLength: 100, tooLong: 'Brand must be at most 100 characters.' },
  description: { maxLength: 2000, tooLong: 'Description must be at most 2000 characters.' },
  categoryId: {
    required: 'Category is required.',
    notYours: 'Choose one of your own categories.',
  },
  productImage: { required: 'Product image is required.' },
  images: { required: 'Add at least one product image (ImageSmall, ImageMedium or ImageLarge).' },
  uploaded: 'Product uploaded successfully!',
  uploadFailed: 'Upload failed!',
  storeUploadFailed: 'Upload failed. Check console for details.',
  notFound: 'Product not found.',
} as const;

/**
 * Widths (pixels) of the three sizes made from a single product image: small for phones and
 * grids, medium for tablets and cards, large for wide screens. An image narrower than a size is
 * never enlarged.
 */
export const PRODUCT_IMAGE_WIDTHS = { small: 320, medium: 640, large: 1280 } as const;
export type ProductImageSize = keyof typeof PRODUCT_IMAGE_WIDTHS;
/** Form fields of the three sizes, smallest first. */
export const PRODUCT_IMAGE_FIELDS = {
  small: 'imageSmall',
  medium: 'imageMedium',
  large: 'imageLarge',
} as const;

export const PRODUCT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const PRODUCT_REVIEW = {
  /** The older client's defaults when the admin leaves the prompts as they are. */
  defaultReason: 'not clear text',
  defaultAdvisedChanges: 'no',
  reasonMaxLength: 500,
  advisedChangesMaxLength: 1000,
  tooLong: 'Must be at most 1000 characters.',
  notPending: (status: string) => `Only a pending product can be reviewed; this one is ${status}.`,
  rejected: (id: number) => `Product # ${id} rejected.`,
  /** Approval lists page in fives (spec §9). */
  perPage: 5,
  emptyPending: 'No merchant products waiting for approval.',
  emptyApproved: 'No approved products found.',
  empty: 'No products found.',
  loadFailed: 'Failed to load merchant products : ',
  loadApprovedFailed: 'Failed to load approved products: ',
  approveFailed: 'Approve failed: ',
  rejectFailed: 'Reject failed : ',
} as const;

/** An admin hiding a merchant's store page and coupons (`PUT /api/admin/stores/:merchantId`). */
export const STORE_VISIBILITY = {
  hidden: 'Send hidden as true or false.',
  notFound: 'Merchant not found.',
} as const;
