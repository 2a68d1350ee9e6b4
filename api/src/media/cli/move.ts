import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { featureEntities } from '../../entities.js';
import { loadEnvironmentOrExit } from '../../infrastructure/config/environment.js';
import { dataSourceOptions } from '../../infrastructure/database/data-source-options.js';
import { moveImages } from '../move.js';
import { configureMediaStore } from '../object-store.js';

/**
 * `npm run media:move -- --to s3|database [--batch 100]`: moves every image to the bucket (S3_*
 * settings) or back into the database, and makes the copies of images stored before copies were
 * made on storing. Safe to stop and run again.
 */
const { values } = parseArgs({
  options: { to: { type: 'string' }, batch: { type: 'string', default: '100' } },
});
if (values.to !== 's3' && values.to !== 'database') {
  console.error('Usage: npm run media:move -- --to s3|database [--batch 100]');
  process.exit(2);
}
const batch = Number(values.batch);
if (!Number.isInteger(batch) || batch < 1) {
  console.error('--batch must be a positive whole number');
  process.exit(2);
}
const environment = loadEnvironmentOrExit();
configureMediaStore(environment);
const dataSource = new DataSource(dataSourceOptions(environment.DATABASE_URL, { size: 2 }, featureEntities));
try {
  await dataSource.initialize();
  const outcome = await moveImages(dataSource, values.to, batch, (line) => console.log(line));
  console.log(
    `Moved to ${values.to}: ${outcome.images} images (${outcome.variantsMade} with copies made now), ${outcome.privateImages} private images`,
  );
} catch (error) {
  console.error(`Moving images failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await dataSource.destroy().catch(() => undefined);
}
