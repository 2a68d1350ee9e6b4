import { DataSource } from 'typeorm';
import { featureEntities } from '../entities.js';
import { loadEnvironmentOrExit } from '../infrastructure/config/environment.js';
import { dataSourceOptions } from '../infrastructure/database/data-source-options.js';
import { configureMediaStore } from '../media/object-store.js';
import { seeds } from './seeds.js';

const environment = loadEnvironmentOrExit();
configureMediaStore(environment);
const dataSource = new DataSource(
  dataSourceOptions(environment.DATABASE_DIRECT_URL, { size: 2 }, featureEntities),
);
try {
  await dataSource.initialize();
  if (seeds.length === 0) console.log('Demo data: no seeds registered.');
  for (const seed of seeds) {
    const outcome = await seed.run(dataSource, environment);
    console.log(`Demo data, ${seed.name}: ${outcome ?? 'already present'}`);
  }
} catch (error) {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await dataSource.destroy().catch(() => undefined);
}
