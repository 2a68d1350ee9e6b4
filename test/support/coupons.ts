import { randomBytes } from 'node:crypto';

/** A valid coupon form; slot 1 and categories 1 and 2 exist once the demo slots are seeded. */
export function couponForm(overrides: Record<string, unknown> = {}) {
  return {
    couponName: 'Diwali Glow',
    couponCode: `GLOW-${randomBytes(3).toString('hex')}`.slice(0, 15),
    expiryDate: new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10),
    termsAndConditions: 'One use per customer.',
    title: '25% off all face serums',
    description: 'Valid on serums and moisturisers across the store.',
    percentage: '25',
    discountValue: '250',
    requestedSlotId: '1',
    merchantUrl: 'https://glow.example.in/diwali',
    categoryIds: [1, 2],
    ...overrides,
  };
}
