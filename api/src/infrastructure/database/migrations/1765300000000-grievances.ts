import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grievances about personal data, filed on the public site signed in or not: who filed (name and
 * address to answer, and the account when signed in), what about, and the answer the admins owe
 * within 90 days (`due_at`, set from the filing time by the rule in rules/privacy.ts).
 */
export class Grievances1765300000000 implements MigrationInterface {
  name = 'Grievances1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE grievances (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        reference text NOT NULL UNIQUE,
        name text NOT NULL,
        email text NOT NULL,
        category text NOT NULL CHECK (category IN ('access', 'correction', 'erasure', 'consent', 'other')),
        subject text NOT NULL,
        message text NOT NULL,
        language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi', 'te')),
        person_kind text CHECK (person_kind IN ('shopper', 'merchant')),
        person_id integer,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'answered')),
        filed_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL,
        answer text,
        answered_at timestamptz,
        answered_by_admin_id integer REFERENCES admins (id),
        CHECK (due_at > filed_at),
        CHECK ((person_kind IS NULL) = (person_id IS NULL)),
        CHECK ((state = 'answered') = (answered_at IS NOT NULL)),
        CHECK (state = 'open' OR (answer IS NOT NULL AND answered_by_admin_id IS NOT NULL))
      )`);
    // The admins' queue: open ones first, the soonest due first.
    await queryRunner.query('CREATE INDEX grievances_due ON grievances (state, due_at, id)');
    await queryRunner.query(
      'CREATE INDEX grievances_person ON grievances (person_kind, person_id) WHERE person_id IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE grievances');
  }
}
