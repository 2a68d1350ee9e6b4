import { loadEnvironmentOrExit } from '../../config/environment.js';
import { migrateDatabase } from '../database-setup.js';

const environment = loadEnvironmentOrExit();
try {
  const applied = await migrateDatabase(environment.DATABASE_DIRECT_URL);
  const database = new URL(environment.DATABASE_DIRECT_URL).pathname.slice(1);
  console.log(
    applied.length > 0
      ? `Database ${database}: applied ${applied.length} migration(s): ${applied.join(', ')}`
      : `Database ${database}: up to date`,
  );
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
