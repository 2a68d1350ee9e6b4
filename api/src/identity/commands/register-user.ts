import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { USER_REGISTRATION } from '../../rules/accounts.js';
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
    return this.unitOfWork.run(async ({ manager, record }) => {
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
