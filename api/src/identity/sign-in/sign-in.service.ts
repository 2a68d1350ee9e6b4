import { Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ACCESS_POOL } from '../../infrastructure/database/data-source-options.js';
import { ADMIN_SIGN_IN, MERCHANT_SIGN_IN, normaliseMobile, USER_SIGN_IN } from '../../rules/accounts.js';
import { verifyPassword } from '../passwords.js';
import {
  ADMIN_BY_USERNAME,
  MERCHANT_BY_NAME_EMAIL_OR_MOBILE,
  USER_BY_EMAIL,
  USER_BY_MOBILE,
} from '../queries/sign-in.js';
import { type NewSession, type Role, SessionService } from '../sessions/session.service.js';
import { SignInThrottle, throttleKeys } from './sign-in-throttle.js';

export interface Credentials {
  /**
   * What names the account: a user's email or mobile number; a merchant's username, email or
   * mobile number; an admin's username.
   */
  identifier: string;
  password: string;
  /** The admin's email, when the form gives one: it must be the account's. */
  adminEmail?: string;
  clientAddress: string;
  /** An API client asked for a bearer token (`X-Session-Kind: bearer`). */
  bearer: boolean;
  userAgent?: string;
}

interface AccountRow {
  id: number;
  password_hash: string;
  email?: string;
}

const FAILED: Record<Role, string> = {
  user: USER_SIGN_IN.failed,
  merchant: MERCHANT_SIGN_IN.failed,
  admin: ADMIN_SIGN_IN.failed,
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
    const identifier = credentials.identifier.trim();
    const mobile = normaliseMobile(identifier);
    const row = await this.account(role, identifier, mobile);
    // Failures count against the account, however it was named (email, number or username), so
    // switching between them gains a guesser nothing; a name that fits no account counts as typed.
    const accountKey = row ? `${role}#${row.id}` : `${role}:${mobile ?? identifier.toLowerCase()}`;
    const keys = throttleKeys(accountKey, credentials.clientAddress);
    await this.throttle.admit(keys);

    const passwordMatches = await verifyPassword(row?.password_hash, credentials.password);
    const adminEmail = credentials.adminEmail?.trim().toLowerCase();
    const emailMatches = !adminEmail || String(row?.email ?? '').toLowerCase() === adminEmail;
    if (!row || !passwordMatches || !emailMatches) {
      await this.throttle.recordFailure(keys);
      throw new UnauthorizedException({ statusCode: 401, message: FAILED[role] });
    }
    await this.throttle.forgive(keys);
    const session = await this.sessions.start(role, row.id, {
      bearer: credentials.bearer,
      userAgent: credentials.userAgent,
    });
    return { accountId: row.id, session };
  }

  private async account(role: Role, identifier: string, mobile: string | undefined) {
    const [row]: AccountRow[] =
      role === 'user'
        ? await this.dataSource.query(mobile ? USER_BY_MOBILE : USER_BY_EMAIL, [mobile ?? identifier])
        : role === 'merchant'
          ? await this.dataSource.query(MERCHANT_BY_NAME_EMAIL_OR_MOBILE, [identifier, mobile ?? null])
          : await this.dataSource.query(ADMIN_BY_USERNAME, [identifier]);
    return row;
  }
}
