import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox relay hears of commits over Redis (see events/outbox-signal.ts): the trigger's NOTIFY
 * made every transaction that recorded an event commit one at a time. The index by aggregate goes
 * too: no query reads it, and every event's insert and its two marks (published, processed) wrote
 * an entry in it.
 */
export class OutboxSignal1764840000000 implements MigrationInterface {
  name = 'OutboxSignal1764840000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER outbox_notify ON outbox');
    await queryRunner.query('DROP FUNCTION outbox_notify()');
    await queryRunner.query('DROP INDEX outbox_aggregate');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX outbox_aggregate ON outbox (aggregate_type, aggregate_id, position)',
    );
    await queryRunner.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox_event', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()',
    );
  }
}
