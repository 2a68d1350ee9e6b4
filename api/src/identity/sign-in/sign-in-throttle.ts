import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SIGN_IN_THROTTLE } from '../../rules/accounts.js';

/**
 * Counts failed sign-ins per account and per client address over a sliding window, in
 * PostgreSQL so every API process counts the same failures.
 */
@Injectable()
export class SignInThrottle {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async assertAllowed(keys: string[]): Promise<void> {
    const [row] = await this.dataSource.query(
      `SELECT coalesce(max(n), 0)::int AS worst FROM (
         SELECT count(*) AS n FROM sign_in_failures
         WHERE key = ANY($1) AND failed_at > now() - make_interval(mins => $2)
         GROUP BY key) counts`,
      [keys, SIGN_IN_THROTTLE.windowMinutes],
    );
    if (row.worst >= SIGN_IN_THROTTLE.maxFailures) {
      throw new HttpException(
        { statusCode: HttpStatus.TOO_MANY_REQUESTS, message: SIGN_IN_THROTTLE.message },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  async recordFailure(keys: string[]): Promise<void> {
    await this.dataSource.query('INSERT INTO sign_in_failures (key) SELECT unnest($1::text[])', [keys]);
  }

  /** A successful sign-in forgives the account's earlier mistakes (not the address's). */
  async forgive(accountKey: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_failures WHERE key = $1', [accountKey]);
  }
}
