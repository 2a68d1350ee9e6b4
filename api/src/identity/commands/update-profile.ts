import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { MERCHANT_REGISTRATION, USER_REGISTRATION } from '../../rules/accounts.js';
import type { UpdateMerchantProfileDto, UpdateUserProfileDto } from '../dto/profile.dto.js';
import { Merchant } from '../entities/merchant.entity.js';
import { User } from '../entities/user.entity.js';
import { MerchantProfileUpdated, UserProfileUpdated } from '../events/account-events.js';
import { conflictFromUniqueViolation } from '../unique-violations.js';

export class UpdateUserProfile extends Command<void> {
  constructor(
    readonly userId: number,
    readonly changes: UpdateUserProfileDto,
  ) {
    super();
  }
}

export class UpdateMerchantProfile extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly changes: UpdateMerchantProfileDto,
  ) {
    super();
  }
}

@CommandHandler(UpdateUserProfile)
export class UpdateUserProfileHandler implements ICommandHandler<UpdateUserProfile> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ userId, changes }: UpdateUserProfile): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.unitOfWork
      .run(async ({ manager, record }) => {
        const { affected } = await manager.update(User, userId, changes);
        if (!affected) throw new NotFoundException();
        record(new UserProfileUpdated(String(userId), { changed: Object.keys(changes).sort() }));
      })
      .catch((error) =>
        conflictFromUniqueViolation(error, USER_REGISTRATION.duplicate, {
          users_mobile_key: { field: 'mobileNumber', message: USER_REGISTRATION.mobileTaken },
        }),
      );
  }
}

@CommandHandler(UpdateMerchantProfile)
export class UpdateMerchantProfileHandler implements ICommandHandler<UpdateMerchantProfile> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ merchantId, changes }: UpdateMerchantProfile): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.unitOfWork
      .run(async ({ manager, record }) => {
        const { affected } = await manager.update(Merchant, merchantId, changes);
        if (!affected) throw new NotFoundException();
        record(new MerchantProfileUpdated(String(merchantId), { changed: Object.keys(changes).sort() }));
      })
      .catch((error) =>
        conflictFromUniqueViolation(error, MERCHANT_REGISTRATION.duplicate, {
          merchants_mobile_key: { field: 'mobile', message: MERCHANT_REGISTRATION.mobileTaken },
        }),
      );
  }
}
