import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { EMAIL_CONFIRMATION, MERCHANT_REGISTRATION } from '../../rules/accounts.js';
import type { RegisterMerchantDto } from '../dto/registration.dto.js';
import { Merchant } from '../entities/merchant.entity.js';
import { MerchantRegistered } from '../events/account-events.js';
import { hashPassword } from '../passwords.js';
import { assignMerchantSlug } from '../queries/merchant-slugs.js';
import { referrerCode, registerReferralCode, unusedReferralCode } from '../referral-codes.js';
import { registerOnce } from '../unique-violations.js';

const DUPLICATE = {
  message: MERCHANT_REGISTRATION.duplicate,
  fieldsByIndex: {
    merchants_email_key: { field: 'email', message: MERCHANT_REGISTRATION.emailTaken },
    merchants_mobile_key: { field: 'mobile', message: MERCHANT_REGISTRATION.mobileTaken },
    merchants_user_name_key: { field: 'userName', message: MERCHANT_REGISTRATION.userNameTaken },
  },
};

export class RegisterMerchant extends Command<{ merchantId: number; referralCode: string }> {
  constructor(readonly registration: RegisterMerchantDto) {
    super();
  }
}

@CommandHandler(RegisterMerchant)
export class RegisterMerchantHandler implements ICommandHandler<RegisterMerchant> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ registration }: RegisterMerchant) {
    const passwordHash = await hashPassword(registration.password);
    return registerOnce(() => this.register(registration, passwordHash), DUPLICATE);
  }

  private register(registration: RegisterMerchantDto, passwordHash: string) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const referredByCode = await referrerCode(manager, registration.referredByCode, {
        message: MERCHANT_REGISTRATION.failed,
        field: 'referredByCode',
        unknown: MERCHANT_REGISTRATION.referredByCode.unknown,
      });
      const referralCode = await unusedReferralCode(manager);
      const confirmationExpiresAt = new Date(Date.now() + EMAIL_CONFIRMATION.validForHours * 3600_000);
      const merchant = await manager.save(
        manager.create(Merchant, {
          merchantName: registration.merchantName,
          brandName: registration.brandName,
          industry: registration.industry,
          category: registration.category,
          address: registration.address,
          language: registration.language ?? 'en',
          email: registration.email,
          mobile: registration.mobile,
          merchantUrl: registration.merchantUrl,
          userName: registration.userName,
          passwordHash,
          referralCode,
          referredByCode,
          referredByType: registration.referredByType ?? 'merchant',
          isEmailConfirmed: false,
          emailConfirmationExpiresAt: confirmationExpiresAt,
        }),
      );
      await registerReferralCode(manager, referralCode, 'merchant', merchant.id);
      await assignMerchantSlug(manager, merchant.id, registration);
      record(
        new MerchantRegistered(String(merchant.id), {
          referralCode,
          referredByCode,
          referredByType: merchant.referredByType,
          confirmationExpiresAt: confirmationExpiresAt.toISOString(),
        }),
      );
      return { merchantId: merchant.id, referralCode };
    });
  }
}
