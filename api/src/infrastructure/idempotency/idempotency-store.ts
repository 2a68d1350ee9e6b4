import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { IDEMPOTENCY } from '../../rules/http.js';
import { CLAIM_KEY, COMPLETE_KEY, FIND_KEY, PURGE_KEYS, RELEASE_KEY } from './queries/idempotency-keys.js';

/** An answer as it was sent, to be sent again. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'in-progress' }
  | { outcome: 'different-request' };

/** The keys in PostgreSQL, shared by every API process, surviving restarts (Redis may not). */
@Injectable()
export class IdempotencyStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async claim(caller: string, key: string, fingerprint: string): Promise<Claim> {
    // Twice at most: a key released between the two statements is simply claimed on the second.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const claimed = await this.dataSource.query(CLAIM_KEY, [
        caller,
        key,
        fingerprint,
        IDEMPOTENCY.replayHours,
        IDEMPOTENCY.abandonedAfterSeconds,
      ]);
      if (claimed.length > 0) return { outcome: 'claimed' };
      const [row] = await this.dataSource.query(FIND_KEY, [caller, key]);
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { outcome: 'different-request' };
      if (row.status === null) return { outcome: 'in-progress' };
      return {
        outcome: 'replay',
        answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' },
      };
    }
    return { outcome: 'in-progress' };
  }

  async complete(caller: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.dataSource.query(COMPLETE_KEY, [caller, key, answer.status, answer.headers, answer.body]);
  }

  async release(caller: string, key: string): Promise<void> {
    await this.dataSource.query(RELEASE_KEY, [caller, key]);
  }
}

/** Deletes keys past their replay period (the hourly housekeeping); answers how many. */
export async function purgeIdempotencyKeys(dataSource: DataSource): Promise<number> {
  const [, deleted] = await dataSource.query(PURGE_KEYS, [IDEMPOTENCY.replayHours]);
  return deleted ?? 0;
}
