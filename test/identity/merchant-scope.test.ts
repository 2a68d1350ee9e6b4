import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { MerchantScope } from '@offers/api/read-models';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/** A stand-in for the merchant-owned records of later features (coupons, products, ...). */
@Entity('merchant_notes')
class MerchantNote {
  @PrimaryGeneratedColumn()
  id: number;

  @Column('int', { name: 'merchant_id' })
  merchantId: number;

  @Column('text')
  text: string;
}

let test: TestEnvironment;
let dataSource: DataSource;

beforeAll(async () => {
  test = await createTestEnvironment('merchant scope');
  dataSource = new DataSource({
    type: 'postgres',
    url: test.environment.DATABASE_URL,
    entities: [MerchantNote],
  });
  await dataSource.initialize();
  await dataSource.query(
    'CREATE TABLE merchant_notes (id serial PRIMARY KEY, merchant_id int NOT NULL, text text NOT NULL)',
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await test?.cleanup();
});

it("keeps each merchant to its own records; another merchant's read as missing and stay unchanged", async () => {
  const repository = dataSource.getRepository(MerchantNote);
  const merchantA = new MerchantScope(repository, 1);
  const merchantB = new MerchantScope(repository, 2);
  const mine = await merchantA.create({ text: 'A', merchantId: 2 }); // a forged merchant id is ignored
  const theirs = await merchantB.create({ text: 'B' });

  expect(mine.merchantId).toBe(1);
  expect((await merchantA.list())[0].map((note) => note.text)).toEqual(['A']);
  await expect(merchantA.get(theirs.id)).rejects.toMatchObject({ status: 404 });
  await expect(merchantA.update(theirs.id, { text: 'changed' })).rejects.toMatchObject({ status: 404 });
  await expect(merchantA.remove(theirs.id)).rejects.toMatchObject({ status: 404 });
  await expect(merchantA.update(mine.id, { merchantId: 2, text: 'A2' })).resolves.toMatchObject({
    merchantId: 1,
    text: 'A2',
  });
  expect(await repository.findOneBy({ id: theirs.id })).toEqual({ id: theirs.id, merchantId: 2, text: 'B' });
});
