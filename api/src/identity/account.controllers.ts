import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { DataSource } from 'typeorm';
import { Environment } from '../infrastructure/config/environment.js';
import { UpdateMerchantProfile, UpdateUserProfile } from './commands/update-profile.js';
import { UpdateMerchantProfileDto, UpdateUserProfileDto } from './dto/profile.dto.js';
import { merchantProfile, userProfile } from './queries/profiles.js';
import { referralInvitation } from './referrals.js';
import { CurrentAccount, CurrentMerchantId } from './sessions/access.js';
import type { SignedInAccount } from './sessions/session.service.js';

class ReferralQuery {
  /** The friend's 10-digit mobile number, to open a chat with them. */
  @IsOptional()
  @IsString()
  mobile?: string;
}

/** The signed-in user's own account (the `/api/me` area is for users only). */
@ApiTags('me')
@Controller('me')
export class UserAccountController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  @Get('profile')
  async profile(@CurrentAccount() account: SignedInAccount) {
    return userProfile(this.dataSource, account.id);
  }

  @Put('profile')
  async updateProfile(@CurrentAccount() account: SignedInAccount, @Body() changes: UpdateUserProfileDto) {
    await this.commands.execute(new UpdateUserProfile(account.id, changes));
    return this.profile(account);
  }

  @Get('referral')
  async referral(@CurrentAccount() account: SignedInAccount, @Query() query: ReferralQuery) {
    const { referralCode } = await userProfile(this.dataSource, account.id);
    return referralInvitation(this.environment.PUBLIC_URL, referralCode, query.mobile);
  }
}

/** The signed-in merchant's own account. */
@ApiTags('merchant')
@Controller('merchant')
export class MerchantAccountController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  @Get('profile')
  async profile(@CurrentMerchantId() merchantId: number) {
    return merchantProfile(this.dataSource, merchantId);
  }

  @Put('profile')
  async updateProfile(@CurrentMerchantId() merchantId: number, @Body() changes: UpdateMerchantProfileDto) {
    await this.commands.execute(new UpdateMerchantProfile(merchantId, changes));
    return this.profile(merchantId);
  }

  @Get('referral')
  async referral(@CurrentMerchantId() merchantId: number, @Query() query: ReferralQuery) {
    const { referralCode } = await merchantProfile(this.dataSource, merchantId);
    return referralInvitation(this.environment.PUBLIC_URL, referralCode, query.mobile);
  }
}
