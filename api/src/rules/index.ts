export * from './accounts.js';
export * from './content.js';
export * from './coupons.js';
export * from './engagement.js';
export * from './forms.js';
export * from './http.js';
export * from './media.js';
export * from './storefront.js';
