import { setTimeout as sleep } from 'node:timers/promises';
import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ACCESS_POOL } from '../../infrastructure/database/data-source-options.js';
import { SIGN_IN_THROTTLE } from '../../rules/accounts.js';
import { FAILURES_BY_KEY, FORGIVE_KEY, RECORD_FAILURES } from '../queries/sign-in-failures.js';

/** The three counters one sign-in attempt touches. */
export interface ThrottleKeys {
  pair: string;
  address: string;
  account: string;
}

export function throttleKeys(accountKey: string, clientAddress: string): ThrottleKeys {
  return {
    pair: `pair:${accountKey}@${clientAddress}`,
    address: `address:${clientAddress}`,
    account: `account:${accountKey}`,
  };
}

const tooMany = () =>
  new HttpException(
    { statusCode: HttpStatus.TOO_MANY_REQUESTS, message: SIGN_IN_THROTTLE.message },
    HttpStatus.TOO_MANY_REQUESTS,
  );

/**
 * Counts failed sign-ins in PostgreSQL (every API process counts the same failures) and applies
 * the rules of {@link SIGN_IN_THROTTLE}: a pair of account and address, or an address, that
 * failed too often is refused; an account attacked from many addresses is only slowed.
 */
@Injectable()
export class SignInThrottle {
  constructor(@InjectDataSource(ACCESS_POOL) private readonly dataSource: DataSource) {}

  /** Throws 429 for a blocked pair or address; waits the account's slowdown otherwise. */
  async admit(keys: ThrottleKeys): Promise<void> {
    const { pair, address, account } = SIGN_IN_THROTTLE;
    const rows: Array<{ key: string; failures: number }> = await this.dataSource.query(FAILURES_BY_KEY, [
      [keys.pair, keys.address, keys.account],
      [pair.windowMinutes, address.windowMinutes, account.windowMinutes],
    ]);
    const failures = new Map(rows.map((row) => [row.key, row.failures]));
    if ((failures.get(keys.pair) ?? 0) >= pair.maxFailures) throw tooMany();
    if ((failures.get(keys.address) ?? 0) >= address.maxFailures) throw tooMany();
    const delay = accountSlowdownMs(failures.get(keys.account) ?? 0);
    if (delay > 0) await sleep(delay);
  }

  async recordFailure(keys: ThrottleKeys): Promise<void> {
    await this.dataSource.query(RECORD_FAILURES, [[keys.pair, keys.address, keys.account]]);
  }

  /**
   * A successful sign-in forgives the mistakes this address made for this account. The account's
   * failures from elsewhere stay: while an attack goes on, its slowdown goes on.
   */
  async forgive(keys: ThrottleKeys): Promise<void> {
    await this.dataSource.query(FORGIVE_KEY, [keys.pair]);
  }
}

/** How long a sign-in of an account with `failures` recent failures (from anywhere) waits. */
export function accountSlowdownMs(failures: number): number {
  const { slowdownAfter, slowdownStepMs, slowdownMaxMs } = SIGN_IN_THROTTLE.account;
  if (failures < slowdownAfter) return 0;
  return Math.min(slowdownMaxMs, (failures - slowdownAfter + 1) * slowdownStepMs);
}
