import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { rateAtClick, storeCashback } from '@offers/api/cashback/queries/rates';
import { dataSourceOptions } from '@offers/api/infrastructure/database/data-source-options';
import {
  createDatabaseIfMissing,
  dropDatabase,
  migrateDatabase,
} from '@offers/api/infrastructure/database/database-setup';
import { migrations } from '@offers/api/infrastructure/database/migrations/index';
import { DataSource } from 'typeorm';

/**
 * The migration to stores' cashback moves the rates merchants and coupons had into the model, in
 * force since the merchant registered or the coupon was submitted, and its down migration puts
 * the percentages back.
 */
const url = `postgres://postgres@127.0.0.1:5432/offers_test_cashback_migration_${randomBytes(4).toString('hex')}`;
const DEFAULTS = { CASHBACK_DEFAULT_RATE_PERCENT: '5' };
let dataSource: DataSource;
let merchantId: number;
let otherMerchantId: number;
let couponId: number;

const at = migrations.findIndex((migration) => migration.name === 'CashbackRates1764960000000');
const before = migrations.slice(0, at);
/** This migration and those made after it, as a fresh migration runs them. */
const fromHere = migrations.slice(at).map((migration) => migration.name);

async function aMerchant(name: string, rateBp: number | null) {
  const [row] = await dataSource.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                            user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                            is_email_confirmed, registered_on, cashback_rate_bp)
     VALUES ($1, $1, 'Beauty', 'Skin Care', 'Hyderabad', $2, $3, 'https://shop.example.in', $1, 'x', $4, 'OFFERS',
             'house', true, '2026-01-01T00:00:00Z', $5)
     RETURNING id`,
    [
      name,
      `${name}@example.in`,
      `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      name.toUpperCase(),
      rateBp,
    ],
  );
  return row.id as number;
}

beforeAll(async () => {
  await createDatabaseIfMissing(url);
  const early = new DataSource({
    ...dataSourceOptions(url, { size: 2 }),
    migrations: before,
    logging: ['error'],
  });
  await early.initialize();
  await early.runMigrations({ transaction: 'each' });
  dataSource = early;
  merchantId = await aMerchant('glowshop', 750);
  otherMerchantId = await aMerchant('plainshop', null);
  const [slot] = await dataSource.query(
    "INSERT INTO slots (name, kind, capacity) VALUES ('Free', 'free', 10) RETURNING id",
  );
  [{ id: couponId }] = await dataSource.query(
    `INSERT INTO coupons (merchant_id, coupon_name, coupon_code, title, description, terms_and_conditions,
                          percentage, discount_value, expiry_date, requested_slot_id, submitted_at, cashback_rate_bp)
     VALUES ($1, 'Serum', 'SERUM10', 'Serum week', 'Serums', 'On serums only', 10, 100, '2031-01-01', $2,
             '2026-02-01T00:00:00Z', 1200)
     RETURNING id`,
    [merchantId, slot.id],
  );
  await early.destroy();
  expect(await migrateDatabase(url)).toEqual(fromHere);
  dataSource = new DataSource({ ...dataSourceOptions(url, { size: 2 }), logging: ['error'] });
  await dataSource.initialize();
}, 120_000);

afterAll(async () => {
  await dataSource?.destroy();
  await dropDatabase(url);
});

it('moves merchants’ and coupons’ rates into the model, in force since they were made, and drops the old columns', async () => {
  const stores = await storeCashback(dataSource, [merchantId, otherMerchantId], DEFAULTS);
  expect(stores.get(merchantId)).toMatchObject({ base: { percent: '7.50' }, baseIsDefault: false });
  expect(stores.get(otherMerchantId)).toMatchObject({ base: { percent: '5.00' }, baseIsDefault: true });

  const history = await dataSource.query(
    `SELECT scope, coupon_id AS "couponId", origin, changes, changed_at AS "changedAt"
     FROM cashback_changes ORDER BY id`,
  );
  expect(history).toEqual([
    {
      scope: 'store',
      couponId: null,
      origin: 'migration',
      changes: { rate: { from: null, to: { percent: '7.50' } } },
      changedAt: new Date('2026-01-01T00:00:00Z'),
    },
    {
      scope: 'coupon',
      couponId,
      origin: 'migration',
      changes: { rate: { from: null, to: { percent: '12.00' } } },
      changedAt: new Date('2026-02-01T00:00:00Z'),
    },
  ]);

  const at = (iso: string) =>
    rateAtClick(dataSource.manager, { merchantId, couponId, clickedAt: new Date(iso) }, null, DEFAULTS);
  expect(await at('2026-01-15T00:00:00Z')).toMatchObject({
    rate: { kind: 'percent', value: 750 },
    source: 'store',
  });
  expect(await at('2026-03-01T00:00:00Z')).toMatchObject({
    rate: { kind: 'percent', value: 1200 },
    source: 'coupon',
  });

  const columns = await dataSource.query(
    "SELECT table_name FROM information_schema.columns WHERE column_name = 'cashback_rate_bp'",
  );
  expect(columns).toEqual([]);
});

it('puts the percentages back when undone', async () => {
  for (const _ of fromHere) await dataSource.undoLastMigration({ transaction: 'each' });
  const [merchant] = await dataSource.query('SELECT cashback_rate_bp AS bp FROM merchants WHERE id = $1', [
    merchantId,
  ]);
  const [coupon] = await dataSource.query('SELECT cashback_rate_bp AS bp FROM coupons WHERE id = $1', [
    couponId,
  ]);
  expect([merchant.bp, coupon.bp]).toEqual([750, 1200]);
  expect(await migrateDatabase(url)).toEqual(fromHere);
});
