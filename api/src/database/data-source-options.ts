import type { DataSourceOptions } from 'typeorm';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';
import { QueryLogger } from './query-logger.js';

export function dataSourceOptions(databaseUrl: string, poolSize = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    migrationsTableName: 'migrations',
    // The schema changes only through migrations.
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    // Failed statements are logged without their parameters (users' data).
    logger: new QueryLogger(),
    extra: { max: poolSize, application_name: process.env.SERVICE_NAME ?? 'offers' },
  };
}
