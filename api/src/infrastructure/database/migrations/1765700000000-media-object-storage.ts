import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Images in an S3-compatible bucket as well as in the database. Each row says where its bytes are
 * (`storage`), so both kinds are served while images move; a row in the bucket keeps no bytes.
 * `variant_widths` lists the widths made when the image was stored (NULL: an image stored before,
 * whose copies the move command makes). `media_pending_objects` records every object written
 * before its row commits, and every object whose row went, so a sweep deletes what no row holds.
 */
export class MediaObjectStorage1765700000000 implements MigrationInterface {
  name = 'MediaObjectStorage1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE media
        ADD COLUMN storage text NOT NULL DEFAULT 'database' CHECK (storage IN ('database', 's3')),
        ADD COLUMN variant_widths integer[],
        ALTER COLUMN bytes DROP NOT NULL,
        ADD CONSTRAINT media_bytes_where_stored CHECK ((storage = 'database') = (bytes IS NOT NULL))`);
    await queryRunner.query(`
      ALTER TABLE private_media
        ADD COLUMN storage text NOT NULL DEFAULT 'database' CHECK (storage IN ('database', 's3')),
        ALTER COLUMN bytes DROP NOT NULL,
        ADD CONSTRAINT private_media_bytes_where_stored CHECK ((storage = 'database') = (bytes IS NOT NULL))`);
    await queryRunner.query(`
      CREATE TABLE media_pending_objects (
        id bigserial PRIMARY KEY,
        key text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('upload', 'release')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX media_pending_objects_key ON media_pending_objects (key)');
    await queryRunner.query(
      'CREATE INDEX media_pending_objects_created ON media_pending_objects (created_at)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE media_pending_objects');
    await queryRunner.query(`
      ALTER TABLE private_media DROP CONSTRAINT private_media_bytes_where_stored, DROP COLUMN storage`);
    await queryRunner.query(`
      ALTER TABLE media DROP CONSTRAINT media_bytes_where_stored, DROP COLUMN storage, DROP COLUMN variant_widths`);
  }
}
