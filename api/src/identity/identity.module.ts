import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from '../infrastructure/config/environment.js';
import {
  ACCESS_POOL,
  dataSourceOptions,
  poolLimits,
} from '../infrastructure/database/data-source-options.js';
import { ADMIN_GATE } from '../infrastructure/http/access.js';
import { MerchantAccountController, UserAccountController } from './account.controllers.js';
import { AuthController } from './auth.controller.js';
import { ClaimStoreHandler } from './commands/claim-store.js';
import { ConfirmMerchantEmailHandler } from './commands/confirm-merchant-email.js';
import {
  ChangePasswordHandler,
  RequestPasswordResetHandler,
  ResetPasswordHandler,
} from './commands/passwords.js';
import { RegisterMerchantHandler } from './commands/register-merchant.js';
import { RegisterUserHandler } from './commands/register-user.js';
import { UpdateMerchantProfileHandler, UpdateUserProfileHandler } from './commands/update-profile.js';
import {
  MerchantSecurityController,
  PasswordRecoveryController,
  UserSecurityController,
} from './password.controllers.js';
import { ReferralCodesController } from './referral-codes.controller.js';
import { AccessGuard, SessionAdminGate } from './sessions/access.js';
import { SessionService } from './sessions/session.service.js';
import { SignInService } from './sign-in/sign-in.service.js';
import { SignInThrottle } from './sign-in/sign-in-throttle.js';

/** Accounts of users, merchants and admins; sessions; the guard every route passes. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      name: ACCESS_POOL,
      inject: [Environment],
      useFactory: (environment: Environment) =>
        dataSourceOptions(environment.DATABASE_URL, poolLimits(environment, 'access')),
    }),
  ],
  controllers: [
    AuthController,
    UserAccountController,
    MerchantAccountController,
    PasswordRecoveryController,
    UserSecurityController,
    MerchantSecurityController,
    ReferralCodesController,
  ],
  providers: [
    SessionService,
    SignInService,
    SignInThrottle,
    ChangePasswordHandler,
    RequestPasswordResetHandler,
    ResetPasswordHandler,
    RegisterUserHandler,
    RegisterMerchantHandler,
    ConfirmMerchantEmailHandler,
    ClaimStoreHandler,
    UpdateUserProfileHandler,
    UpdateMerchantProfileHandler,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: ADMIN_GATE, useClass: SessionAdminGate },
  ],
  exports: [SessionService, SignInThrottle, ADMIN_GATE],
})
export class IdentityModule {}
