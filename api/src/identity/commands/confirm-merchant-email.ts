import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { EMAIL_CONFIRMATION } from '../../rules/accounts.js';
import { isEmailConfirmationTokenValid, readEmailConfirmationToken } from '../email-confirmation.js';
import { Merchant } from '../entities/merchant.entity.js';
import { MerchantEmailConfirmed } from '../events/account-events.js';

export class ConfirmMerchantEmail extends Command<{ merchantId: number }> {
  constructor(readonly token: string) {
    super();
  }
}

@CommandHandler(ConfirmMerchantEmail)
export class ConfirmMerchantEmailHandler implements ICommandHandler<ConfirmMerchantEmail> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ token }: ConfirmMerchantEmail) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const invalid = new BadRequestException({ statusCode: 400, message: EMAIL_CONFIRMATION.invalid });
      const parsed = readEmailConfirmationToken(token);
      if (!parsed) throw invalid;
      const merchant = await manager.findOne(Merchant, {
        where: { id: parsed.merchantId },
        lock: { mode: 'pessimistic_write' },
      });
      // A store without an account has no email to confirm.
      if (
        !merchant?.email ||
        !isEmailConfirmationTokenValid(this.environment.SESSION_SECRET, token, merchant.email)
      ) {
        throw invalid;
      }
      // Following the link twice is not an error.
      if (!merchant.isEmailConfirmed) {
        await manager.update(Merchant, merchant.id, {
          isEmailConfirmed: true,
          emailConfirmationExpiresAt: null,
        });
        record(new MerchantEmailConfirmed(String(merchant.id), {}));
      }
      return { merchantId: merchant.id };
    });
  }
}
