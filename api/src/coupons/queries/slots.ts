import type { DataSource, EntityManager } from 'typeorm';
import { type ListRequest, sqlOrder } from '../../infrastructure/http/react-admin.js';
import { paiseToRupees } from '../../rules/money.js';
import type { SlotSettings } from '../events/slot-events.js';
import type { SlotAnswer } from './answers.js';

/** SQL reads of `slots` (see migration Coupons1763950000000); its writes are in slot-store.ts. */

type Reader = Pick<DataSource | EntityManager, 'query'>;

/** The fields the admins' list sorts by, and the merchants' (who pick one when submitting). */
export const SLOT_SORTS = ['id', 'name', 'kind', 'capacity'] as const;
export const MERCHANT_SLOT_SORTS = ['id', 'name'] as const;
export type SlotSort = (typeof SLOT_SORTS)[number];

// The price as a number: whole paise stay exact as a double far past any price the forms take.
const SETTINGS_COLUMNS = 'name, kind, price_paise::float8 AS "pricePaise", capacity';

export function slotAnswer(id: number, settings: SlotSettings): SlotAnswer {
  return {
    id,
    name: settings.name,
    kind: settings.kind,
    price: settings.pricePaise === null ? null : paiseToRupees(settings.pricePaise),
    capacity: settings.capacity,
  };
}

/** One page of slots and their total. */
export async function slotPage(
  reader: Reader,
  page: ListRequest<SlotSort>,
): Promise<{ rows: SlotAnswer[]; total: number }> {
  const [{ total }] = await reader.query('SELECT count(*)::int AS total FROM slots');
  const rows: Array<SlotSettings & { id: number }> = await reader.query(
    `SELECT id, ${SETTINGS_COLUMNS} FROM slots ORDER BY ${sqlOrder(page, page.sortField)} OFFSET $1 LIMIT $2`,
    [page.offset, page.limit],
  );
  return { rows: rows.map((row) => slotAnswer(row.id, row)), total };
}

export async function slotById(reader: Reader, id: number): Promise<SlotAnswer | undefined> {
  const [row]: Array<SlotSettings> = await reader.query(
    `SELECT ${SETTINGS_COLUMNS} FROM slots WHERE id = $1`,
    [id],
  );
  return row && slotAnswer(id, row);
}

/** Every slot's id and kind, oldest first. */
export function slotKinds(reader: Reader): Promise<Array<{ id: number; kind: 'free' | 'paid' }>> {
  return reader.query('SELECT id, kind FROM slots ORDER BY id');
}

/** The id of the slot of that name, whatever its case (names are unique so), if there is one. */
export async function slotIdNamed(reader: Reader, name: string): Promise<number | undefined> {
  const [row]: Array<{ id: number }> = await reader.query(
    'SELECT id FROM slots WHERE lower(name) = lower($1)',
    [name],
  );
  return row?.id;
}

/**
 * The slot, locked against other changes of it until the transaction ends. FOR NO KEY UPDATE, as
 * the UPDATE that follows takes: it waits for approvals in flight (they hold the row FOR SHARE)
 * but not for coupons that only name the slot (their foreign keys hold FOR KEY SHARE).
 */
export async function lockSlot(manager: EntityManager, id: number): Promise<SlotSettings | undefined> {
  const [row]: Array<SlotSettings> = await manager.query(
    `SELECT ${SETTINGS_COLUMNS} FROM slots WHERE id = $1 FOR NO KEY UPDATE`,
    [id],
  );
  return row;
}
