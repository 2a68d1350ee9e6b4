import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { Environment } from '../infrastructure/config/environment.js';
import { ACCESS_POOL } from '../infrastructure/database/data-source-options.js';
import { addressGroup } from '../infrastructure/http/client-address.js';
import { RateLimits } from '../infrastructure/http/rate-limits.js';
import { NotReplayed } from '../infrastructure/idempotency/not-replayed.js';
import { scheduledErasureOf } from '../privacy/queries/deletion-requests.js';
import {
  EMAIL_CONFIRMATION,
  MERCHANT_REGISTRATION,
  MERCHANT_SIGN_IN,
  USER_REGISTRATION,
} from '../rules/accounts.js';
import { ConfirmMerchantEmail } from './commands/confirm-merchant-email.js';
import { RegisterMerchant } from './commands/register-merchant.js';
import { RegisterUser } from './commands/register-user.js';
import { RegisterMerchantDto, RegisterUserDto } from './dto/registration.dto.js';
import { AdminSignInDto, MerchantSignInDto, UserSignInDto } from './dto/sign-in.dto.js';
import type { Me } from './queries/answers.js';
import { signedInAdmin, signedInMerchant, signedInUser } from './queries/profiles.js';
import { CurrentAccount, Public } from './sessions/access.js';
import { SessionService, type SignedInAccount } from './sessions/session.service.js';
import { clearSessionCookies, setSessionCookies } from './sessions/session-cookies.js';
import { SignInService } from './sign-in/sign-in.service.js';

/**
 * API clients ask for a bearer token with this header (`X-Session-Kind: bearer`); a browser's
 * sign-in gets the httpOnly cookie alone, so no script on the page ever holds a credential. A
 * header rather than a body field: an HTML form cannot set one, and no DTO changes.
 */
export const SESSION_KIND_HEADER = 'x-session-kind';

const wantsBearer = (request: FastifyRequest) =>
  String(request.headers[SESSION_KIND_HEADER] ?? '').toLowerCase() === 'bearer';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly signIns: SignInService,
    private readonly sessions: SessionService,
    /** The access pool, as for the sign-in itself: signing in never waits behind other work. */
    @InjectDataSource(ACCESS_POOL) private readonly dataSource: DataSource,
    private readonly environment: Environment,
    private readonly limits: RateLimits,
  ) {}

  @Public()
  @Post('users/register')
  async registerUser(@Body() body: RegisterUserDto, @Req() request: FastifyRequest) {
    await this.limits.consume('registration', request.ip);
    const { userId, referralCode } = await this.commands.execute(new RegisterUser(body));
    return { userId, referralCode, message: USER_REGISTRATION.success };
  }

  @Public()
  @Post('merchants/register')
  async registerMerchant(@Body() body: RegisterMerchantDto, @Req() request: FastifyRequest) {
    await this.limits.consume('registration', request.ip);
    const { merchantId, referralCode } = await this.commands.execute(new RegisterMerchant(body));
    return { merchantId, referralCode, message: MERCHANT_REGISTRATION.success };
  }

  @Public()
  @Get('confirm-email')
  async confirmEmail(@Query('token') token = '') {
    const { merchantId } = await this.commands.execute(new ConfirmMerchantEmail(String(token)));
    return { merchantId, message: EMAIL_CONFIRMATION.confirmed };
  }

  @Public()
  @Post('users/login')
  @NotReplayed()
  @HttpCode(200)
  async signInUser(
    @Body() body: UserSignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { accountId, session } = await this.signIns.signIn('user', {
      // The DTO makes sure one of the two is given.
      identifier: body.emailOrMobile ?? body.email ?? '',
      password: body.password,
      clientAddress: addressGroup(request.ip),
      bearer: wantsBearer(request),
      userAgent: request.headers['user-agent'],
    });
    setSessionCookies(reply, session, this.secureCookies);
    const user = await signedInUser(this.dataSource, accountId);
    return {
      userId: accountId,
      message: 'Login successful',
      ...(session.bearerToken && { token: session.bearerToken }),
      xsrfToken: session.xsrfToken,
      user,
      ...(await this.scheduledDeletion('shopper', accountId)),
    };
  }

  @Public()
  @Post('merchants/login')
  @NotReplayed()
  @HttpCode(200)
  async signInMerchant(
    @Body() body: MerchantSignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { accountId, session } = await this.signIns.signIn('merchant', {
      identifier: body.userName,
      password: body.password,
      clientAddress: addressGroup(request.ip),
      bearer: wantsBearer(request),
      userAgent: request.headers['user-agent'],
    });
    setSessionCookies(reply, session, this.secureCookies);
    const merchant = await signedInMerchant(this.dataSource, accountId);
    return {
      merchantId: accountId,
      message: MERCHANT_SIGN_IN.success,
      ...(session.bearerToken && { token: session.bearerToken }),
      xsrfToken: session.xsrfToken,
      merchant,
      ...(await this.scheduledDeletion('merchant', accountId)),
    };
  }

  @Public()
  @Post('admin/login')
  @NotReplayed()
  @HttpCode(200)
  async signInAdmin(
    @Body() body: AdminSignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { accountId, session } = await this.signIns.signIn('admin', {
      identifier: body.username,
      password: body.password,
      adminEmail: body.email,
      clientAddress: addressGroup(request.ip),
      bearer: wantsBearer(request),
      userAgent: request.headers['user-agent'],
    });
    setSessionCookies(reply, session, this.secureCookies);
    const admin = await signedInAdmin(this.dataSource, accountId);
    return {
      userId: accountId,
      ...(session.bearerToken && { token: session.bearerToken }),
      xsrfToken: session.xsrfToken,
      admin,
    };
  }

  @Post('logout')
  @HttpCode(204)
  async signOut(@CurrentAccount() account: SignedInAccount, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.end(account.sessionId);
    clearSessionCookies(reply);
  }

  @Get('me')
  whoAmI(@CurrentAccount() account: SignedInAccount): Me {
    return { role: account.role, id: account.id, name: account.name };
  }

  /**
   * Signing in during a deletion's grace period says when the account goes, so the person may
   * cancel (`POST /api/me/account-deletion/cancel`, or the merchant's); nothing otherwise.
   */
  private async scheduledDeletion(kind: 'shopper' | 'merchant', accountId: number) {
    const eraseAfter = await scheduledErasureOf(this.dataSource, kind, accountId);
    return eraseAfter ? { scheduledDeletion: { eraseAfter: eraseAfter.toISOString() } } : {};
  }

  private get secureCookies(): boolean {
    return new URL(this.environment.API_URL).protocol === 'https:';
  }
}
