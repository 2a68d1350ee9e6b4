import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, MinLength } from 'class-validator';
import { IsOptional, RequiredText } from '../../infrastructure/http/field-decorators.js';
import { MERCHANT_REGISTRATION as M, TEXT_LIMITS, USER_REGISTRATION as U } from '../../rules/accounts.js';
import { LANGUAGE_MESSAGE, LANGUAGES, type Language } from '../../rules/engagement.js';
import { MobileNumber } from './mobile-number.js';

/** Each field may be left out; a field that is sent follows the registration rule. */
export class UpdateUserProfileDto {
  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(U.userName.required, TEXT_LIMITS.name)
  @MinLength(U.userName.minLength, { message: U.userName.tooShort })
  userName?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MobileNumber(U.mobileNumber.required, U.mobileNumber.invalid)
  mobileNumber?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(U.address.required, TEXT_LIMITS.address)
  address?: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;
}

export class UpdateMerchantProfileDto {
  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(M.merchantName.required, TEXT_LIMITS.name)
  @MinLength(M.merchantName.minLength, { message: M.merchantName.tooShort })
  merchantName?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MobileNumber(M.mobile.required, M.mobile.invalid)
  mobile?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(M.address.required, TEXT_LIMITS.address)
  address?: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;
}
