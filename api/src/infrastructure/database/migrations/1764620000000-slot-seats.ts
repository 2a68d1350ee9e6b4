import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A slot's capacity as rows: one seat per place, held by the live coupon approved into it until
 * that coupon ends (`until`, its expiry; a withdrawal frees the seat at once). Approvals into one
 * slot each take a free seat with SKIP LOCKED instead of queueing on the slot's row, and a slot
 * can never hold more coupons than it has seats. A trigger keeps the seats in step with the
 * capacity, whoever writes the slot (admins, seeds).
 */
export class SlotSeats1764620000000 implements MigrationInterface {
  name = 'SlotSeats1764620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE slot_seats (
        slot_id integer NOT NULL REFERENCES slots (id) ON DELETE CASCADE,
        seat integer NOT NULL,
        coupon_id integer UNIQUE REFERENCES coupons (id),
        until timestamptz,
        PRIMARY KEY (slot_id, seat),
        CHECK ((coupon_id IS NULL) = (until IS NULL))
      )`);
    // Seats for every slot, the live coupons in the first of them.
    await queryRunner.query(`
      INSERT INTO slot_seats (slot_id, seat)
      SELECT s.id, generate_series(0, greatest(s.capacity,
               (SELECT count(*)::int FROM coupons c
                WHERE c.slot_id = s.id AND c.status = 'live' AND c.expiry_date > now())) - 1)
      FROM slots s`);
    await queryRunner.query(`
      UPDATE slot_seats s SET coupon_id = live.id, until = live.expiry_date
      FROM (SELECT id, slot_id, expiry_date, row_number() OVER (PARTITION BY slot_id ORDER BY id) - 1 AS seat
            FROM coupons WHERE status = 'live' AND slot_id IS NOT NULL AND expiry_date > now()) live
      WHERE s.slot_id = live.slot_id AND s.seat = live.seat`);
    // A new slot gets its seats. A changed capacity packs the held seats first and keeps as many
    // seats as the capacity or the coupons holding one, whichever is more: seats past the capacity
    // stay held until their coupons end, and no seat is handed out while any of them is held.
    // The slot's row is locked by the UPDATE, which waits for approvals in flight (they hold it FOR
    // SHARE) and holds back new ones until it commits.
    await queryRunner.query(`
      CREATE FUNCTION slot_seats_follow_capacity() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE held integer;
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.capacity = OLD.capacity THEN
          RETURN NULL;
        END IF;
        UPDATE slot_seats SET coupon_id = NULL, until = NULL WHERE slot_id = NEW.id AND until <= now();
        SELECT count(*) INTO held FROM slot_seats WHERE slot_id = NEW.id AND coupon_id IS NOT NULL;
        -- Renumbered through negative numbers, so no two seats ever share a number on the way.
        UPDATE slot_seats s SET seat = -1 - o.position
        FROM (SELECT seat, row_number() OVER (ORDER BY coupon_id IS NULL, seat) - 1 AS position
              FROM slot_seats WHERE slot_id = NEW.id) o
        WHERE s.slot_id = NEW.id AND s.seat = o.seat;
        UPDATE slot_seats SET seat = -1 - seat WHERE slot_id = NEW.id;
        DELETE FROM slot_seats WHERE slot_id = NEW.id AND seat >= greatest(NEW.capacity, held);
        INSERT INTO slot_seats (slot_id, seat)
        SELECT NEW.id, generate_series(0, NEW.capacity - 1) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER slot_seats_follow_capacity AFTER INSERT OR UPDATE OF capacity ON slots
      FOR EACH ROW EXECUTE FUNCTION slot_seats_follow_capacity()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER slot_seats_follow_capacity ON slots');
    await queryRunner.query('DROP FUNCTION slot_seats_follow_capacity()');
    await queryRunner.query('DROP TABLE slot_seats');
  }
}
