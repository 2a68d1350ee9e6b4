import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MediaVariants1763990000000 implements MigrationInterface {
  name = 'MediaVariants1763990000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Resized copies, made on first request and kept: an image is resized once per width and format.
    await queryRunner.query(`
      CREATE TABLE media_variants (
        media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
        width integer NOT NULL,
        content_type text NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (media_id, width, content_type)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE media_variants');
  }
}
