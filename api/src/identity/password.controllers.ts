import { Body, Controller, Delete, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RateLimits } from '../infrastructure/http/rate-limits.js';
import { PASSWORD_RESET, type RecoverableRole } from '../rules/accounts.js';
import { ChangePassword, RequestPasswordReset, ResetPassword } from './commands/passwords.js';
import { ChangePasswordDto, ForgotPasswordDto, ResetPasswordDto } from './dto/password.dto.js';
import { CurrentAccount, Public } from './sessions/access.js';
import { SessionService, type SignedInAccount } from './sessions/session.service.js';
import { clearSessionCookies } from './sessions/session-cookies.js';

/** Password recovery for users and merchants who cannot sign in. */
@ApiTags('auth')
@Controller('auth/password')
export class PasswordRecoveryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly limits: RateLimits,
  ) {}

  /** Always the same 202, whether or not the account exists: the form tells nobody who is registered. */
  @Public()
  @Post('forgot')
  @HttpCode(202)
  async forgot(@Body() body: ForgotPasswordDto) {
    await this.limits.consumeForAccount('passwordRecovery', `${body.role}:${body.email}`);
    await this.commands.execute(new RequestPasswordReset(body.role, body.email));
    return { message: PASSWORD_RESET.accepted };
  }

  @Public()
  @Post('reset')
  @HttpCode(204)
  async reset(@Body() body: ResetPasswordDto) {
    await this.commands.execute(new ResetPassword(body.token, body.password));
  }
}

/** The same three routes under `/api/me/` (users) and `/api/merchant/` (merchants). */
abstract class AccountSecurityRoutes {
  constructor(
    protected readonly commands: CommandBus,
    protected readonly sessions: SessionService,
  ) {}

  /** Changes the password; the other sessions of the account end, this one stays. */
  @Put('password')
  @HttpCode(204)
  async changePassword(@CurrentAccount() account: SignedInAccount, @Body() body: ChangePasswordDto) {
    await this.commands.execute(
      new ChangePassword(
        account.role as RecoverableRole,
        account.id,
        account.sessionId,
        body.currentPassword,
        body.newPassword,
      ),
    );
  }

  /** The account's live sessions, most recently used first; `current` marks the caller's. */
  @Get('sessions')
  listSessions(@CurrentAccount() account: SignedInAccount) {
    return this.sessions.list(account.role, account.id, account.sessionId);
  }

  /** Signs out everywhere: every session of the account ends, the caller's included. */
  @Delete('sessions')
  @HttpCode(204)
  async signOutEverywhere(
    @CurrentAccount() account: SignedInAccount,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.sessions.endAll(account.role, account.id);
    clearSessionCookies(reply);
  }
}

@ApiTags('me')
@Controller('me')
export class UserSecurityController extends AccountSecurityRoutes {
  constructor(commands: CommandBus, sessions: SessionService) {
    super(commands, sessions);
  }
}

@ApiTags('merchant')
@Controller('merchant')
export class MerchantSecurityController extends AccountSecurityRoutes {
  constructor(commands: CommandBus, sessions: SessionService) {
    super(commands, sessions);
  }
}
