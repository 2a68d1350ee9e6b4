import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Environment } from '../../infrastructure/config/environment.js';
import { ACCESS_POOL } from '../../infrastructure/database/data-source-options.js';
import type { Role, SessionSummary } from '../queries/answers.js';
import {
  END_ACCOUNT_SESSIONS,
  END_SESSION,
  FIND_SESSION,
  LIST_ACCOUNT_SESSIONS,
  START_SESSION,
  TOUCH_SESSION,
} from '../queries/sessions.js';

export type { Role } from '../queries/answers.js';

/** Who is calling, as every guarded handler sees it. */
export interface SignedInAccount {
  sessionId: string;
  role: Role;
  id: number;
  name: string;
  /** Cookie sessions must echo their XSRF token on unsafe requests; bearer ones need not. */
  via: 'cookie' | 'bearer';
  xsrfToken: string;
}

export interface NewSession {
  id: string;
  cookieToken: string;
  /** Only for API clients that asked for one: a browser's sign-in gets cookies alone. */
  bearerToken?: string;
  xsrfToken: string;
  expiresAt: Date;
}

/** A row of `LIST_ACCOUNT_SESSIONS`. */
interface SessionRow {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  apiClient: boolean;
}

const newToken = () => randomBytes(32).toString('base64url');
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sessions live in PostgreSQL, so every API process sees the same ones and Redis may restart
 * without signing anybody out. Only digests of the tokens are stored. A session ends at its
 * expiry (`SESSION_TTL_HOURS`) or after `SESSION_IDLE_HOURS` without use, whichever comes first.
 */
@Injectable()
export class SessionService {
  constructor(
    @InjectDataSource(ACCESS_POOL) private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  async start(
    role: Role,
    accountId: number,
    options: { bearer: boolean; userAgent?: string },
  ): Promise<NewSession> {
    const cookieToken = newToken();
    const bearerToken = options.bearer ? newToken() : undefined;
    const xsrfToken = newToken();
    const expiresAt = new Date(Date.now() + this.environment.SESSION_TTL_HOURS * 3600_000);
    const [{ id }] = await this.dataSource.query(START_SESSION, [
      digest(cookieToken),
      bearerToken ? digest(bearerToken) : null,
      xsrfToken,
      role,
      accountId,
      expiresAt,
      options.userAgent?.slice(0, 300) ?? null,
    ]);
    return { id, cookieToken, bearerToken, xsrfToken, expiresAt };
  }

  async find(via: 'cookie' | 'bearer', token: string): Promise<SignedInAccount | undefined> {
    const column = via === 'cookie' ? 'cookie_token_hash' : 'bearer_token_hash';
    const [row] = await this.dataSource.query(FIND_SESSION(column), [
      digest(token),
      this.environment.SESSION_IDLE_HOURS,
    ]);
    if (!row || row.name === null) return undefined;
    if (row.stale) await this.dataSource.query(TOUCH_SESSION, [row.id]);
    return {
      sessionId: row.id,
      role: row.role,
      id: row.account_id,
      name: row.name,
      via,
      xsrfToken: row.xsrf_token,
    };
  }

  async end(sessionId: string): Promise<void> {
    await this.dataSource.query(END_SESSION, [sessionId]);
  }

  /** Ends every session of the account, or every one but `keep` (the caller's own). */
  async endAll(role: Role, accountId: number, keep?: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource).query(END_ACCOUNT_SESSIONS, [role, accountId, keep ?? null]);
  }

  async list(role: Role, accountId: number, currentSessionId: string): Promise<SessionSummary[]> {
    const rows: SessionRow[] = await this.dataSource.query(LIST_ACCOUNT_SESSIONS, [
      role,
      accountId,
      this.environment.SESSION_IDLE_HOURS,
    ]);
    return rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      current: row.id === currentSessionId,
    }));
  }
}

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
