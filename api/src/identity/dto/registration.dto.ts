import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  Equals,
  IsArray,
  IsEmail,
  IsIn,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  Flag,
  IsOptional,
  RequiredText,
  StrongPassword,
  Trim,
} from '../../infrastructure/http/field-decorators.js';
import { MERCHANT_REGISTRATION as M, TEXT_LIMITS, USER_REGISTRATION as U } from '../../rules/accounts.js';
import { LANGUAGE_MESSAGE, LANGUAGES, type Language } from '../../rules/engagement.js';
import {
  AGE_CONFIRMATION,
  CONSENT_PURPOSES,
  CONSENTS,
  type ConsentPurpose,
  MINIMUM_AGE,
} from '../../rules/privacy.js';
import { MobileNumber } from './mobile-number.js';

/** The "I am 18 or older" box: registration without it is refused and stores nothing. */
function AgeConfirmed() {
  return applyDecorators(
    ApiProperty({
      example: true,
      description: `The person confirms being ${MINIMUM_AGE} or older; required.`,
    }),
    Flag(AGE_CONFIRMATION.required),
    Equals(true, { message: AGE_CONFIRMATION.required }),
  );
}

export class RegisterUserDto {
  @ApiProperty({ example: 'Asha Rao' })
  @RequiredText(U.userName.required, TEXT_LIMITS.name)
  @MinLength(U.userName.minLength, { message: U.userName.tooShort })
  userName: string;

  @ApiProperty({ example: 'asha@example.in' })
  @RequiredText(U.email.required, TEXT_LIMITS.email)
  @IsEmail({}, { message: U.email.invalid })
  email: string;

  @ApiProperty({ example: 'Shop@2026' })
  @StrongPassword(U.password.required)
  password: string;

  @ApiProperty({ example: '9876543210', description: 'An Indian mobile number; +91 or 0 before it is fine.' })
  @MobileNumber(U.mobileNumber.required, U.mobileNumber.invalid)
  mobileNumber: string;

  @ApiPropertyOptional({
    description: 'Referral code of whoever referred this user; the house code when empty.',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(TEXT_LIMITS.shortText)
  referredBy?: string;

  @ApiProperty({ example: '12 MG Road, Bengaluru' })
  @RequiredText(U.address.required, TEXT_LIMITS.address)
  address: string;

  /** Sent by older clients; the server makes the code. */
  @ApiPropertyOptional({ deprecated: true, description: 'Ignored: the server generates the referral code.' })
  @Allow()
  referralCode?: unknown;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails; English when left out.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;

  @AgeConfirmed()
  ageConfirmed: boolean;

  @ApiPropertyOptional({
    enum: CONSENT_PURPOSES,
    isArray: true,
    description: 'The optional consents ticked on the form; none when left out.',
  })
  @IsOptional()
  @IsArray({ message: CONSENTS.purposes })
  @ArrayMaxSize(CONSENT_PURPOSES.length, { message: CONSENTS.purposes })
  @IsIn(CONSENT_PURPOSES, { each: true, message: CONSENTS.purposes })
  consents?: ConsentPurpose[];
}

export class RegisterMerchantDto {
  @ApiProperty({ example: 'Glow Cosmetics' })
  @RequiredText(M.merchantName.required, TEXT_LIMITS.name)
  @MinLength(M.merchantName.minLength, { message: M.merchantName.tooShort })
  merchantName: string;

  @ApiProperty({ example: 'Glow' })
  @RequiredText(M.brandName.required, TEXT_LIMITS.name)
  @MinLength(M.brandName.minLength, { message: M.brandName.tooShort })
  brandName: string;

  @ApiProperty({ example: 'Beauty' })
  @RequiredText(M.industry.required, TEXT_LIMITS.shortText)
  industry: string;

  @ApiProperty({ example: 'Skin Care' })
  @RequiredText(M.category.required, TEXT_LIMITS.shortText)
  category: string;

  @ApiProperty({ example: '4 Park Street, Kolkata' })
  @RequiredText(M.address.required, TEXT_LIMITS.address)
  address: string;

  @ApiProperty({ example: 'owner@glow.in' })
  @RequiredText(M.email.required, TEXT_LIMITS.email)
  @IsEmail({}, { message: M.email.invalid })
  email: string;

  @ApiProperty({ example: '9123456780', description: 'An Indian mobile number; +91 or 0 before it is fine.' })
  @MobileNumber(M.mobile.required, M.mobile.invalid)
  mobile: string;

  @ApiProperty({ example: 'https://glow.in', description: 'The legacy key `merchatURL` is accepted too.' })
  @Expose()
  @Transform(({ value, obj }) => {
    const url = value ?? obj.merchatURL;
    return typeof url === 'string' ? url.trim() : url;
  })
  @RequiredText(M.merchantUrl.required, TEXT_LIMITS.url)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: M.merchantUrl.invalid })
  merchantUrl: string;

  @ApiPropertyOptional({ deprecated: true })
  @Allow()
  merchatURL?: unknown;

  @ApiProperty({ example: 'glowadmin' })
  @RequiredText(M.userName.required, TEXT_LIMITS.name)
  @MinLength(M.userName.minLength, { message: M.userName.tooShort })
  userName: string;

  @ApiProperty({ example: 'Glow@2026' })
  @StrongPassword(M.password.required)
  password: string;

  @ApiPropertyOptional({ description: 'Referral code of whoever referred this merchant.' })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(TEXT_LIMITS.shortText)
  referredByCode?: string;

  @ApiPropertyOptional({ enum: ['merchant', 'user'], default: 'merchant' })
  @IsOptional()
  @Matches(/^(merchant|user)$/, { message: 'Referred by type must be merchant or user.' })
  referredByType?: 'merchant' | 'user';

  /** Sent by older clients; the server decides these. */
  @ApiPropertyOptional({ deprecated: true })
  @Allow()
  referralCode?: unknown;

  @ApiPropertyOptional({ deprecated: true })
  @Allow()
  isEmailConfirmed?: unknown;

  @ApiPropertyOptional({ deprecated: true })
  @Allow()
  registeredOn?: unknown;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails; English when left out.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;

  @AgeConfirmed()
  ageConfirmed: boolean;
}
