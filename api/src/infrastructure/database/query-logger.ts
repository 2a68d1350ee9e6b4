import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's own loggers print a failed statement with its parameters, and those are the values
 * users sent: a duplicate registration put the password hash, email, mobile number and address
 * into the log. This one logs the statement and the database's error, never the parameters,
 * through Nest's logger (so it lands in the JSON log with everything else).
 */
export class QueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    const { message, code, constraint } = error as Error & { code?: string; constraint?: string };
    this.logger.warn(
      { query: query.slice(0, 500), code, constraint, error: message ?? String(error) },
      'Query failed',
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ query: query.slice(0, 500), ms: time }, 'Slow query');
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
