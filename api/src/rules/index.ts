export * from './accounts.js';
export * from './coupons.js';
export * from './engagement.js';
