import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The log of data requests: every export, deletion step and grievance step, who acted (the person,
 * an admin or the system) and when. It names the person by account id only, which after an erasure
 * names nobody (the account row stays under the pseudonym), so the log outlives the erasure it
 * records. `detail` holds counts and references, never a personal field.
 */
export class DataRequests1765050000000 implements MigrationInterface {
  name = 'DataRequests1765050000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE data_requests (
        id bigserial PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('export', 'deletion', 'grievance')),
        action text NOT NULL CHECK (action ~ '^[a-z][a-z_]{0,39}$'),
        person_kind text CHECK (person_kind IN ('shopper', 'merchant')),
        person_id integer,
        reference text,
        acted_by text NOT NULL CHECK (acted_by IN ('person', 'admin', 'system')),
        admin_id integer,
        acted_at timestamptz NOT NULL DEFAULT now(),
        detail jsonb NOT NULL DEFAULT '{}'::jsonb,
        CHECK ((person_kind IS NULL) = (person_id IS NULL)),
        CHECK ((acted_by = 'admin') = (admin_id IS NOT NULL))
      )`);
    // The admins' log reads the newest first, all kinds or one.
    await queryRunner.query('CREATE INDEX data_requests_newest ON data_requests (acted_at DESC, id DESC)');
    await queryRunner.query('CREATE INDEX data_requests_person ON data_requests (person_kind, person_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE data_requests');
  }
}
