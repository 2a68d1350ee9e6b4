import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { TEXT_LIMITS, USER_REGISTRATION } from '../rules/accounts.js';
import { normaliseReferralCode, referralCodeExists } from './referral-codes.js';
import { Public } from './sessions/access.js';

/**
 * Whether a referral code exists, so the registration form can say at once that the code of a
 * referral link is unknown (and let the shopper fix or clear it) rather than only on submit.
 */
@ApiTags('auth')
@Controller('referral-codes')
export class ReferralCodesController {
  constructor(private readonly dataSource: DataSource) {}

  @Public()
  @Get(':code')
  async referralCode(@Param('code') given: string) {
    const code = given.length <= TEXT_LIMITS.shortText ? normaliseReferralCode(given) : undefined;
    if (!code || !(await referralCodeExists(this.dataSource.manager, code))) {
      throw new NotFoundException({ statusCode: 404, message: USER_REGISTRATION.referredBy.unknown });
    }
    return { code };
  }
}
