import type { EntityManager } from 'typeorm';
import type { SlotSettings } from './events/slot-events.js';

/** The writes of `slots`, made by the slot commands only (reads are in queries/slots.ts). */

const VALUES = (settings: SlotSettings) => [
  settings.name,
  settings.kind,
  settings.pricePaise,
  settings.capacity,
];

/** Answers the new slot's id; its seats follow from the table's trigger (migration SlotSeats). */
export async function insertSlot(manager: EntityManager, settings: SlotSettings): Promise<number> {
  const [{ id }] = await manager.query(
    'INSERT INTO slots (name, kind, price_paise, capacity) VALUES ($1, $2, $3, $4) RETURNING id',
    VALUES(settings),
  );
  return id;
}

export async function updateSlot(manager: EntityManager, id: number, settings: SlotSettings): Promise<void> {
  await manager.query(
    'UPDATE slots SET name = $2, kind = $3, price_paise = $4, capacity = $5 WHERE id = $1',
    [id, ...VALUES(settings)],
  );
}

export async function deleteSlot(manager: EntityManager, id: number): Promise<void> {
  await manager.query('DELETE FROM slots WHERE id = $1', [id]);
}
