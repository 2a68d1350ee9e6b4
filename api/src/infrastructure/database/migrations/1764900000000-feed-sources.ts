import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Feed sources of coupons (affiliate networks, aggregators), the runs that import them, each run's
 * rejected rows, and the files admins upload for a run.
 *
 * A source's credential lives in a table of its own, which no answer's query reads: the list and
 * the record of a source cannot carry it by mistake. A source has at most one run that is not
 * over (queued, running or waiting for an admin), so two runs of one feed never overlap.
 * An uploaded file is kept until its run ends, in PostgreSQL, so any workers process can take
 * the run; deleting the run deletes it.
 */
export class FeedSources1764900000000 implements MigrationInterface {
  name = 'FeedSources1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE feed_sources (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        format text NOT NULL CHECK (format IN ('admitad-json', 'cuelinks-json', 'linkmydeals-csv', 'mapped-csv')),
        url text CHECK (url ~ '^https?://'),
        schedule_minutes integer CHECK (schedule_minutes IN (15, 30, 60, 180, 360, 720, 1440)),
        mode text NOT NULL CHECK (mode IN ('full', 'incremental')),
        slot_id integer NOT NULL REFERENCES slots (id),
        review_policy text NOT NULL CHECK (review_policy IN ('publish', 'review')),
        mapping jsonb,
        sub_id_param text NOT NULL DEFAULT 'subid' CHECK (sub_id_param ~ '^[A-Za-z0-9_-]{1,32}$'),
        postback_secret text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (url IS NOT NULL OR schedule_minutes IS NULL),
        CHECK ((format = 'mapped-csv') = (mapping IS NOT NULL))
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX feed_sources_name ON feed_sources (lower(name))');

    await queryRunner.query(`
      CREATE TABLE feed_source_credentials (
        source_id integer PRIMARY KEY REFERENCES feed_sources (id) ON DELETE CASCADE,
        credential jsonb NOT NULL CHECK (credential->>'kind' IN ('header', 'basic'))
      )`);

    await queryRunner.query(`
      CREATE TABLE feed_runs (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id integer NOT NULL REFERENCES feed_sources (id),
        status text NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'waiting-for-admin', 'discarded')),
        trigger text NOT NULL CHECK (trigger IN ('scheduled', 'manual', 'upload')),
        requested_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        accepted_at timestamptz,
        rows_read integer NOT NULL DEFAULT 0,
        added integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        unchanged integer NOT NULL DEFAULT 0,
        ended integer NOT NULL DEFAULT 0,
        duplicates integer NOT NULL DEFAULT 0,
        rejected integer NOT NULL DEFAULT 0,
        error text
      )`);
    await queryRunner.query('CREATE INDEX feed_runs_source ON feed_runs (source_id, id)');
    await queryRunner.query(`
      CREATE UNIQUE INDEX feed_runs_one_open ON feed_runs (source_id)
      WHERE status IN ('queued', 'running', 'waiting-for-admin')`);

    await queryRunner.query(`
      CREATE TABLE feed_run_rejections (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        run_id integer NOT NULL REFERENCES feed_runs (id) ON DELETE CASCADE,
        line integer NOT NULL,
        row_id text,
        reason text NOT NULL,
        message text NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX feed_run_rejections_run ON feed_run_rejections (run_id, line, id)');

    await queryRunner.query(`
      CREATE TABLE feed_uploads (
        run_id integer PRIMARY KEY REFERENCES feed_runs (id) ON DELETE CASCADE,
        bytes bytea NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE feed_uploads');
    await queryRunner.query('DROP TABLE feed_run_rejections');
    await queryRunner.query('DROP TABLE feed_runs');
    await queryRunner.query('DROP TABLE feed_source_credentials');
    await queryRunner.query('DROP TABLE feed_sources');
  }
}
