import { createSlot } from '../coupons/commands/slots.js';
import type { SlotDto } from '../coupons/dto/review.dto.js';
import { slotIdNamed } from '../coupons/queries/slots.js';
import { runInTransaction } from '../infrastructure/events/unit-of-work.js';
import type { Seed } from './seeds.js';

/** Placement slots of the demo marketplace: one free, two paid. */
const DEMO_SLOTS: SlotDto[] = [
  { name: 'Free listing', kind: 'free', capacity: 500 },
  { name: 'Featured', kind: 'paid', price: '499', capacity: 20 },
  { name: 'Home page hero', kind: 'paid', price: '1999', capacity: 4 },
];

/**
 * The demo slots, each created as an admin's CreateSlot does (with its SlotCreated), unless a slot
 * of its name is there already.
 */
export const demoSlotsSeed: Seed = {
  name: 'slots',
  async run(dataSource) {
    const added = await runInTransaction(dataSource, async (tx) => {
      // Two seeds at once (two starts) take turns; the second finds the slots made.
      await tx.manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:slots'))");
      let count = 0;
      for (const slot of DEMO_SLOTS) {
        if ((await slotIdNamed(tx.manager, slot.name)) !== undefined) continue;
        await createSlot(tx, slot);
        count += 1;
      }
      return count;
    });
    return added > 0 ? `${added} slots added` : undefined;
  },
};
