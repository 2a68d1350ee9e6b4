import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EventLog1763856000000 implements MigrationInterface {
  name = 'EventLog1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY,
        position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        type text NOT NULL,
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        payload jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        processed_at timestamptz,
        failed_at timestamptz,
        last_error text
      )`);
    // The relay's two scans read only these small partial indexes, whatever the log's size.
    await queryRunner.query(
      'CREATE INDEX outbox_unpublished ON outbox (position) WHERE published_at IS NULL',
    );
    await queryRunner.query(
      `CREATE INDEX outbox_unprocessed ON outbox (published_at)
       WHERE published_at IS NOT NULL AND processed_at IS NULL AND failed_at IS NULL`,
    );
    await queryRunner.query(
      'CREATE INDEX outbox_aggregate ON outbox (aggregate_type, aggregate_id, position)',
    );
    // Wakes the relay at commit without a round trip of the command's own.
    await queryRunner.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox_event', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()',
    );
    await queryRunner.query(`
      CREATE TABLE inbox (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        handled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE inbox');
    await queryRunner.query('DROP TABLE outbox');
    await queryRunner.query('DROP FUNCTION outbox_notify()');
  }
}
