import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Environment } from '../../config/environment.js';

export type Role = 'user' | 'merchant' | 'admin';

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
  cookieToken: string;
  bearerToken: string;
  xsrfToken: string;
  expiresAt: Date;
}

const newToken = () => randomBytes(32).toString('base64url');
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sessions live in PostgreSQL, so every API process sees the same ones and Redis may restart
 * without signing anybody out. Only digests of the tokens are stored.
 */
@Injectable()
export class SessionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  async start(role: Role, accountId: number): Promise<NewSession> {
    const session = {
      cookieToken: newToken(),
      bearerToken: newToken(),
      xsrfToken: newToken(),
      expiresAt: new Date(Date.now() + this.environment.SESSION_TTL_HOURS * 3600_000),
    };
    await this.dataSource.query(
      `INSERT INTO sessions (cookie_token_hash, bearer_token_hash, xsrf_token, role, account_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        digest(session.cookieToken),
        digest(session.bearerToken),
        session.xsrfToken,
        role,
        accountId,
        session.expiresAt,
      ],
    );
    return session;
  }

  async find(via: 'cookie' | 'bearer', token: string): Promise<SignedInAccount | undefined> {
    const column = via === 'cookie' ? 'cookie_token_hash' : 'bearer_token_hash';
    const [row] = await this.dataSource.query(
      `SELECT s.id, s.role, s.account_id, s.xsrf_token,
              coalesce(u.user_name, m.merchant_name, a.username) AS name
       FROM sessions s
       LEFT JOIN users u ON s.role = 'user' AND u.id = s.account_id
       LEFT JOIN merchants m ON s.role = 'merchant' AND m.id = s.account_id
       LEFT JOIN admins a ON s.role = 'admin' AND a.id = s.account_id
       WHERE s.${column} = $1 AND s.expires_at > now()`,
      [digest(token)],
    );
    if (!row || row.name === null) return undefined;
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
    await this.dataSource.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
  }
}

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
