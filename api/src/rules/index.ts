export * from './accounts.js';
export * from './coupons.js';
