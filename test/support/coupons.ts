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

/** A multipart/form-data body, as a browser form with files sends it. */
export function multipart(
  fields: Record<string, unknown>,
  files: Record<string, { name: string; type: string; bytes: Buffer }> = {},
) {
  const boundary = `----offers${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const item of [value].flat()) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(item)}\r\n`,
        ),
      );
    }
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  };
}

/** The smallest valid PNG: one transparent pixel. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
