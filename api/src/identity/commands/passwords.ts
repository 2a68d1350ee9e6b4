import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { PASSWORD_CHANGE, PASSWORD_RESET, type RecoverableRole } from '../../rules/accounts.js';
import { PasswordChanged, PasswordResetRequested } from '../events/account-events.js';
import { isPasswordResetTokenValid, readPasswordResetToken } from '../password-reset.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import {
  ACCOUNT_BY_EMAIL,
  ACCOUNT_TABLE,
  PASSWORD_HASH,
  PASSWORD_HASH_FOR_UPDATE,
  SET_PASSWORD_HASH,
} from '../queries/passwords.js';
import { END_ACCOUNT_SESSIONS } from '../queries/sessions.js';

const aggregateOf = (role: RecoverableRole) => (role === 'user' ? 'User' : 'Merchant');

export class ChangePassword extends Command<void> {
  constructor(
    readonly role: RecoverableRole,
    readonly accountId: number,
    /** The session that asks: it stays signed in, every other one ends. */
    readonly sessionId: string,
    readonly currentPassword: string,
    readonly newPassword: string,
  ) {
    super();
  }
}

@CommandHandler(ChangePassword)
export class ChangePasswordHandler implements ICommandHandler<ChangePassword> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ role, accountId, sessionId, currentPassword, newPassword }: ChangePassword) {
    const newHash = await hashPassword(newPassword);
    await this.unitOfWork.run(async ({ manager, record }) => {
      const table = ACCOUNT_TABLE[role];
      const [account] = await manager.query(PASSWORD_HASH_FOR_UPDATE(table), [accountId]);
      if (!(await verifyPassword(account?.passwordHash, currentPassword))) {
        const message = PASSWORD_CHANGE.currentPassword.wrong;
        throw new BadRequestException({ statusCode: 400, message, errors: { currentPassword: [message] } });
      }
      await manager.query(SET_PASSWORD_HASH(table), [accountId, newHash]);
      await manager.query(END_ACCOUNT_SESSIONS, [role, accountId, sessionId]);
      record(new PasswordChanged(aggregateOf(role), String(accountId), { role, via: 'change' }));
    });
  }
}

export class RequestPasswordReset extends Command<void> {
  constructor(
    readonly role: RecoverableRole,
    readonly email: string,
  ) {
    super();
  }
}

/** Records the request when the account exists; says nothing either way (the caller answers 202). */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ role, email }: RequestPasswordReset) {
    await this.unitOfWork.run(async ({ manager, record }) => {
      const [account] = await manager.query(ACCOUNT_BY_EMAIL(ACCOUNT_TABLE[role]), [email.trim()]);
      if (!account) return;
      const expiresAt = new Date(Date.now() + PASSWORD_RESET.validForMinutes * 60_000).toISOString();
      record(new PasswordResetRequested(aggregateOf(role), String(account.id), { role, expiresAt }));
    });
  }
}

export class ResetPassword extends Command<void> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}

/** Sets the new password from a valid link and ends every session of the account. */
@CommandHandler(ResetPassword)
export class ResetPasswordHandler implements ICommandHandler<ResetPassword> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute({ token, password }: ResetPassword) {
    const invalid = new BadRequestException({ statusCode: 400, message: PASSWORD_RESET.invalid });
    const parsed = readPasswordResetToken(token);
    if (!parsed) throw invalid;
    const table = ACCOUNT_TABLE[parsed.role];
    const valid = (account?: { passwordHash: string }) =>
      account !== undefined &&
      isPasswordResetTokenValid(this.environment.SESSION_SECRET, token, account.passwordHash);
    // Checked before the (deliberately slow) hash of the new password, so forged links cost little.
    const [current] = await this.dataSource.query(PASSWORD_HASH(table), [parsed.accountId]);
    if (!valid(current)) throw invalid;
    const newHash = await hashPassword(password);
    await this.unitOfWork.run(async ({ manager, record }) => {
      // Checked again under the row lock, so two uses of one link at once cannot both pass.
      const [account] = await manager.query(PASSWORD_HASH_FOR_UPDATE(table), [parsed.accountId]);
      if (!valid(account)) throw invalid;
      await manager.query(SET_PASSWORD_HASH(table), [parsed.accountId, newHash]);
      await manager.query(END_ACCOUNT_SESSIONS, [parsed.role, parsed.accountId, null]);
      record(
        new PasswordChanged(aggregateOf(parsed.role), String(parsed.accountId), {
          role: parsed.role,
          via: 'reset',
        }),
      );
    });
  }
}
