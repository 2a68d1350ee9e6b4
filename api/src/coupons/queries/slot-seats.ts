import type { DataSource, EntityManager } from 'typeorm';

/**
 * SQL of slot seats (see migration SlotSeats1764620000000): a slot holds at most as many live
 * coupons as it has seats, each approval taking one.
 */

/**
 * The slot an approval places into, locked FOR SHARE: approvals into it go on side by side, and a
 * capacity change (an UPDATE, which locks the row for itself) waits for them and they for it.
 */
export const SLOT_FOR_APPROVAL = 'SELECT id, name, capacity FROM slots WHERE id = $1 FOR SHARE';

/**
 * Gives a free seat among the first `capacity` to the coupon ($2, held until $3, or for good when
 * it is open-ended: then only its end frees it) and answers its
 * number: an empty one or one whose coupon's expiry has passed. Without `wait`, seats other
 * approvals are taking are skipped rather than waited for; with it, each is waited for and taken
 * if its taker gave it up, so an empty answer then means no seat is free. With `retiring`, no
 * seat is given while seats past the capacity (left by a lowered capacity) are still held.
 */
export const TAKE_SEAT = (wait: boolean, retiring: boolean) => `
  UPDATE slot_seats SET coupon_id = $2, until = coalesce($3::timestamptz, 'infinity')
  WHERE slot_id = $1 AND seat = (
    SELECT seat FROM slot_seats
    WHERE slot_id = $1 AND seat < $4 AND (coupon_id IS NULL OR until <= now())
    ORDER BY seat LIMIT 1 FOR UPDATE${wait ? '' : ' SKIP LOCKED'})
  ${retiring ? 'AND NOT EXISTS (SELECT 1 FROM slot_seats WHERE slot_id = $1 AND seat >= $4 AND until > now())' : ''}
  RETURNING seat`;

/** Seats past the capacity still held, and all seats held, of a slot. */
export const HELD_SEATS = `
  SELECT count(*) FILTER (WHERE seat >= $2)::int AS retiring, count(*)::int AS held
  FROM slot_seats WHERE slot_id = $1 AND until > now()`;

/** Frees the seats of coupons that left the lists (withdrawn, expired). */
export const FREE_SEATS =
  'UPDATE slot_seats SET coupon_id = NULL, until = NULL WHERE coupon_id = ANY($1::int[])';

/**
 * Gives the coupon a seat of the slot and answers its number, or undefined when the slot is full.
 * Approvals into one slot run side by side: each first takes a seat no other is taking (SKIP
 * LOCKED); only when none is left does it wait for the seats others are taking, one of which may
 * be given up (a rolled-back approval). After a lowered capacity, while seats past it are held,
 * approvals count the held seats one at a time (an advisory lock per slot) and take a seat only
 * below the capacity.
 */
export async function takeSeat(
  manager: EntityManager,
  slot: { id: number; capacity: number },
  couponId: number,
  until: Date | null,
): Promise<number | undefined> {
  const take = async (wait: boolean, retiring: boolean) => {
    const [rows]: [Array<{ seat: number }>, number] = await manager.query(TAKE_SEAT(wait, retiring), [
      slot.id,
      couponId,
      until,
      slot.capacity,
    ]);
    return rows[0]?.seat;
  };
  const seat = (await take(false, true)) ?? (await take(true, true));
  if (seat !== undefined) return seat;
  const [{ retiring }] = await manager.query(HELD_SEATS, [slot.id, slot.capacity]);
  if (retiring === 0) return undefined;
  await manager.query("SELECT pg_advisory_xact_lock(hashtext('slot-seats'), $1)", [slot.id]);
  const [{ held }] = await manager.query(HELD_SEATS, [slot.id, slot.capacity]);
  return held < slot.capacity ? take(true, false) : undefined;
}

/**
 * Gives free seats among the first `capacity` to the coupons in one statement, in their order
 * (seats others are taking skipped, none given while seats past the capacity are held), and
 * answers the coupons seated. One scan of the slot's seats for a lot, where a seat each would
 * scan the held ones again for every coupon; the coupons left over go through `takeSeat`.
 */
export async function takeSeats(
  manager: EntityManager,
  slot: { id: number; capacity: number },
  coupons: ReadonlyArray<{ couponId: number; until: Date | null }>,
): Promise<Set<number>> {
  if (coupons.length === 0) return new Set();
  const [rows]: [Array<{ couponId: number }>, number] = await manager.query(
    `WITH free AS (
       SELECT seat FROM slot_seats
       WHERE slot_id = $1 AND seat < $4 AND (coupon_id IS NULL OR until <= now())
       ORDER BY seat LIMIT cardinality($2::int[]) FOR UPDATE SKIP LOCKED),
     numbered AS (SELECT seat, row_number() OVER (ORDER BY seat) AS n FROM free),
     taker AS (SELECT * FROM unnest($2::int[], $3::timestamptz[]) WITH ORDINALITY AS t (coupon_id, until, n))
     UPDATE slot_seats s SET coupon_id = taker.coupon_id, until = coalesce(taker.until, 'infinity')
     FROM numbered JOIN taker USING (n)
     WHERE s.slot_id = $1 AND s.seat = numbered.seat
       AND NOT EXISTS (SELECT 1 FROM slot_seats WHERE slot_id = $1 AND seat >= $4 AND until > now())
     RETURNING s.coupon_id AS "couponId"`,
    [slot.id, coupons.map((coupon) => coupon.couponId), coupons.map((coupon) => coupon.until), slot.capacity],
  );
  return new Set(rows.map((row) => row.couponId));
}

/** How many coupons are in the slot or asked for it (a slot with any cannot be deleted). */
export async function couponsOfSlot(reader: Pick<DataSource, 'query'>, slotId: number): Promise<number> {
  const [{ used }] = await reader.query(
    'SELECT count(*)::int AS used FROM coupons WHERE slot_id = $1 OR requested_slot_id = $1',
    [slotId],
  );
  return used;
}
