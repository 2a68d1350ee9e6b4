import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { followNewsletterConsent } from '../../privacy/commands/consents.js';
import { recordConsents } from '../../privacy/consent-store.js';
import { USER_REGISTRATION } from '../../rules/accounts.js';
import { CONSENT_PURPOSES, PRIVACY_NOTICE_VERSION } from '../../rules/privacy.js';
import type { RegisterUserDto } from '../dto/registration.dto.js';
import { User } from '../entities/user.entity.js';
import { UserRegistered } from '../events/account-events.js';
import { hashPassword } from '../passwords.js';
import { referrerCode, registerReferralCode, unusedReferralCode } from '../referral-codes.js';
import { registerOnce } from '../unique-violations.js';

const DUPLICATE = {
  message: USER_REGISTRATION.duplicate,
  fieldsByIndex: {
    users_email_key: { field: 'email', message: USER_REGISTRATION.emailTaken },
    users_mobile_key: { field: 'mobileNumber', message: USER_REGISTRATION.mobileTaken },
  },
};

export class RegisterUser extends Command<{ userId: number; referralCode: string }> {
  constructor(readonly registration: RegisterUserDto) {
    super();
  }
}

@CommandHandler(RegisterUser)
export class RegisterUserHandler implements ICommandHandler<RegisterUser> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ registration }: RegisterUser) {
    const passwordHash = await hashPassword(registration.password);
    return registerOnce(() => this.register(registration, passwordHash), DUPLICATE);
  }

  private register(registration: RegisterUserDto, passwordHash: string) {
    return this.unitOfWork.run(async (tx) => {
      const { manager, record } = tx;
      const referredBy = await referrerCode(manager, registration.referredBy, {
        message: USER_REGISTRATION.invalid,
        field: 'referredBy',
        unknown: USER_REGISTRATION.referredBy.unknown,
      });
      const referralCode = await unusedReferralCode(manager);
      const user = await manager.save(
        manager.create(User, {
          userName: registration.userName,
          email: registration.email,
          mobileNumber: registration.mobileNumber,
          passwordHash,
          referralCode,
          referredBy,
          address: registration.address,
          language: registration.language ?? 'en',
        }),
      );
      await registerReferralCode(manager, referralCode, 'user', user.id);
      // Each optional consent is recorded, given or not, under the notice the form showed.
      const ticked = new Set(registration.consents ?? []);
      await recordConsents(
        tx,
        { kind: 'shopper', id: user.id },
        CONSENT_PURPOSES.map((purpose) => ({ purpose, given: ticked.has(purpose) })),
        PRIVACY_NOTICE_VERSION,
      );
      if (ticked.has('newsletter')) await followNewsletterConsent(tx, user.id, true);
      record(
        new UserRegistered(String(user.id), {
          referralCode,
          referredBy,
        }),
      );
      return { userId: user.id, referralCode };
    });
  }
}
