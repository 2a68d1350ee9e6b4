import type { Seed } from './seeds.js';

/** Placement slots of the demo marketplace: one free, two paid. */
export const demoSlotsSeed: Seed = {
  name: 'slots',
  async run(dataSource) {
    const inserted = await dataSource.query(
      `INSERT INTO slots (name, kind, price_paise, capacity) VALUES
         ('Free listing', 'free', NULL, 500),
         ('Featured', 'paid', 49900, 20),
         ('Home page hero', 'paid', 199900, 4)
       ON CONFLICT DO NOTHING RETURNING id`,
    );
    return inserted.length > 0 ? `${inserted.length} slots added` : undefined;
  },
};
