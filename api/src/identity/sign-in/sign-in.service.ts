import { Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ACCESS_POOL } from '../../database/data-source-options.js';
import { ADMIN_SIGN_IN, MERCHANT_SIGN_IN, USER_SIGN_IN } from '../../rules/accounts.js';
import { verifyPassword } from '../passwords.js';
import { type NewSession, type Role, SessionService } from '../sessions/session.service.js';
import { SignInThrottle, throttleKeys } from './sign-in-throttle.js';

export interface Credentials {
  /** What identifies the account: the email for users, the username for merchants and admins. */
  identifier: string;
  password: string;
  /** A second fact the form asks for (the user's username, the admin's email), if given. */
  alsoMatches?: { column: 'user_name' | 'email'; value: string };
  clientAddress: string;
  /** An API client asked for a bearer token (`X-Session-Kind: bearer`). */
  bearer: boolean;
  userAgent?: string;
}

const ACCOUNTS: Record<Role, { table: string; key: string; failed: string }> = {
  user: { table: 'users', key: 'email', failed: USER_SIGN_IN.failed },
  merchant: { table: 'merchants', key: 'user_name', failed: MERCHANT_SIGN_IN.failed },
  admin: { table: 'admins', key: 'username', failed: ADMIN_SIGN_IN.failed },
};

@Injectable()
export class SignInService {
  constructor(
    @InjectDataSource(ACCESS_POOL) private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    private readonly throttle: SignInThrottle,
  ) {}

  /**
   * Checks the credentials and starts a session. A wrong password and an unknown account fail
   * alike, with the same message and the same work (a password check runs either way).
   */
  async signIn(role: Role, credentials: Credentials): Promise<{ accountId: number; session: NewSession }> {
    const account = ACCOUNTS[role];
    const identifier = credentials.identifier.trim();
    const accountKey = `${role}:${identifier.toLowerCase()}`;
    const keys = throttleKeys(accountKey, credentials.clientAddress);
    await this.throttle.admit(keys);

    const also = credentials.alsoMatches;
    const [row] = await this.dataSource.query(
      `SELECT id, password_hash${also ? `, ${also.column} AS also` : ''}
       FROM ${account.table} WHERE lower(${account.key}) = lower($1)`,
      [identifier],
    );
    const passwordMatches = await verifyPassword(row?.password_hash, credentials.password);
    const alsoMatches = !also || String(row?.also ?? '').toLowerCase() === also.value.trim().toLowerCase();
    if (!row || !passwordMatches || !alsoMatches) {
      await this.throttle.recordFailure(keys);
      throw new UnauthorizedException({ statusCode: 401, message: account.failed });
    }
    await this.throttle.forgive(keys);
    const session = await this.sessions.start(role, row.id, {
      bearer: credentials.bearer,
      userAgent: credentials.userAgent,
    });
    return { accountId: row.id, session };
  }
}
