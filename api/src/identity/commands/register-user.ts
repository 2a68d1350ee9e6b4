import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { HOUSE_REFERRAL_CODE, USER_REGISTRATION } from '../../rules/accounts.js';
import type { RegisterUserDto } from '../dto/registration.dto.js';
import { User } from '../entities/user.entity.js';
import { UserRegistered } from '../events/account-events.js';
import { hashPassword } from '../passwords.js';
import {
  normaliseReferralCode,
  referralCodeExists,
  registerReferralCode,
  unusedReferralCode,
} from '../referral-codes.js';
import { conflictFromUniqueViolation, isUniqueViolationOf } from '../unique-violations.js';

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
    for (;;) {
      try {
        return await this.register(registration, passwordHash);
      } catch (error) {
        // Two registrations drew the same new referral code at once: draw again.
        if (!isUniqueViolationOf(error, 'referral_codes_pkey')) {
          conflictFromUniqueViolation(error, USER_REGISTRATION.duplicate, {
            users_email_key: { field: 'email', message: USER_REGISTRATION.emailTaken },
            users_mobile_key: { field: 'mobileNumber', message: USER_REGISTRATION.mobileTaken },
          });
        }
      }
    }
  }

  private register(registration: RegisterUserDto, passwordHash: string) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const referredBy = normaliseReferralCode(registration.referredBy) ?? HOUSE_REFERRAL_CODE;
      if (!(await referralCodeExists(manager, referredBy))) {
        throw new BadRequestException({
          statusCode: 400,
          message: USER_REGISTRATION.invalid,
          errors: { referredBy: [USER_REGISTRATION.referredBy.unknown] },
        });
      }
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
        }),
      );
      await registerReferralCode(manager, referralCode, 'user', user.id);
      record(
        new UserRegistered(String(user.id), {
          userName: user.userName,
          email: user.email,
          referralCode,
          referredBy,
        }),
      );
      return { userId: user.id, referralCode };
    });
  }
}
