import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsInt,
  IsNotEmpty,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  IsOptional,
  Nullable,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../infrastructure/http/field-decorators.js';
import {
  COUPON_CODE,
  COUPON_FORM as F,
  COUPON_TEXT_LANGUAGE_NAMES as NAMES,
  COUPON_TEXT_RULES as T,
} from '../../rules/coupons.js';
import { textTooLong } from '../../rules/forms.js';

/** "3", [3, "4"], "3,4" → [3, 4]: forms send lists in all these ways. */
const toIdList = ({ value }: { value: unknown }) => {
  if (value === undefined || value === null || value === '') return undefined;
  const items = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(','));
  return items.map((item) => (/^\s*\d{1,9}\s*$/.test(item) ? Number(item) : item));
};

/** A date alone means the end of that day in India; a full timestamp is taken as given. */
export function parseExpiry(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value === '' ? undefined : value;
  const text = value.trim();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999+05:30`) : new Date(text);
  return Number.isNaN(date.getTime()) ? text : date;
}

/**
 * A title, description or terms in another language: optional, trimmed, within the English
 * field's limit; empty or null clears it (commands/submission.ts pairs title and description).
 */
function OtherLanguageText(
  maxLength: number,
  tooLong: string,
  minLength?: { length: number; message: string },
) {
  return applyDecorators(
    Nullable(),
    Trim(),
    IsString({ message: tooLong }),
    MaxLength(maxLength, { message: tooLong }),
    ...(minLength
      ? [Matches(new RegExp(`^(|[\\s\\S]{${minLength.length},})$`, 'u'), { message: minLength.message })]
      : []),
  );
}

/** The texts in Hindi and Telugu beside English, as the form's flat fields (COUPON_TEXT_FIELDS). */
export class CouponTextFieldsDto {
  @ApiPropertyOptional({ maxLength: 50, description: 'The title in Hindi.' })
  @OtherLanguageText(F.title.maxLength, T.titleTooLong(NAMES.hi))
  titleHi?: string | null;

  @ApiPropertyOptional({ maxLength: 200 })
  @OtherLanguageText(F.description.maxLength, T.descriptionTooLong(NAMES.hi))
  descriptionHi?: string | null;

  @ApiPropertyOptional({ maxLength: 2000 })
  @OtherLanguageText(T.termsMaxLength, textTooLong(T.termsMaxLength), {
    length: F.termsAndConditions.minLength,
    message: T.termsTooShort(NAMES.hi),
  })
  termsHi?: string | null;

  @ApiPropertyOptional({ maxLength: 50, description: 'The title in Telugu.' })
  @OtherLanguageText(F.title.maxLength, T.titleTooLong(NAMES.te))
  titleTe?: string | null;

  @ApiPropertyOptional({ maxLength: 200 })
  @OtherLanguageText(F.description.maxLength, T.descriptionTooLong(NAMES.te))
  descriptionTe?: string | null;

  @ApiPropertyOptional({ maxLength: 2000 })
  @OtherLanguageText(T.termsMaxLength, textTooLong(T.termsMaxLength), {
    length: F.termsAndConditions.minLength,
    message: T.termsTooShort(NAMES.te),
  })
  termsTe?: string | null;
}

export class CouponFormDto extends CouponTextFieldsDto {
  @ApiProperty({ example: 'Diwali Glow' })
  @RequiredText(F.couponName.required, 100)
  @MinLength(F.couponName.minLength, { message: F.couponName.tooShort })
  couponName: string;

  @ApiProperty({ example: 'GLOW-25' })
  @RequiredText(F.couponCode.required, 100)
  @Matches(COUPON_CODE, { message: F.couponCode.invalid })
  couponCode: string;

  @ApiProperty({ example: '2026-12-31', description: 'A date (end of that day, India time) or a timestamp.' })
  @Transform(({ value }) => parseExpiry(value))
  @IsNotEmpty({ message: F.expiryDate.required })
  @IsValidFutureDate()
  expiryDate: Date;

  @ApiProperty()
  @RequiredText(F.termsAndConditions.required, 2000)
  @MinLength(F.termsAndConditions.minLength, { message: F.termsAndConditions.tooShort })
  termsAndConditions: string;

  @ApiProperty({ maxLength: 50 })
  @Trim()
  @IsNotEmpty({ message: F.title.required })
  @MaxLength(F.title.maxLength, { message: F.title.tooLong })
  title: string;

  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsNotEmpty({ message: F.description.required })
  @MaxLength(F.description.maxLength, { message: F.description.tooLong })
  description: string;

  @ApiProperty({ minimum: 1, maximum: 100 })
  @WholeNumber(F.percentage.required, F.percentage.invalid, F.percentage.min, F.percentage.max)
  percentage: number;

  @ApiProperty({ minimum: 1 })
  @WholeNumber(F.discountValue.required, F.discountValue.invalid, F.discountValue.min, 10_000_000)
  discountValue: number;

  @ApiProperty()
  @WholeNumber(F.requestedSlotId.required, F.requestedSlotId.unknown, 1, 2_147_483_647)
  requestedSlotId: number;

  @ApiPropertyOptional({ example: 'https://glow.in/diwali' })
  @IsOptional()
  @Trim()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: F.merchantUrl.invalid })
  @MaxLength(2048, { message: F.merchantUrl.invalid })
  merchantUrl?: string;

  @ApiProperty({ type: [Number], example: [1, 3] })
  @Transform(toIdList)
  @IsNotEmpty({ message: F.categoryIds.required })
  @ArrayMinSize(1, { message: F.categoryIds.required })
  @ArrayMaxSize(8, { message: F.categoryIds.unknown })
  @IsInt({ each: true, message: F.categoryIds.unknown })
  categoryIds: number[];
}

/** Editing a pending coupon: any subset of the form's fields, each with its rule. */
export class CouponChangesDto extends CouponTextFieldsDto {
  @IsOptional()
  @RequiredText(F.couponName.required, 100)
  @MinLength(F.couponName.minLength, { message: F.couponName.tooShort })
  couponName?: string;

  @IsOptional()
  @RequiredText(F.couponCode.required, 100)
  @Matches(COUPON_CODE, { message: F.couponCode.invalid })
  couponCode?: string;

  @IsOptional()
  @Transform(({ value }) => parseExpiry(value))
  @IsValidFutureDate()
  expiryDate?: Date;

  @IsOptional()
  @RequiredText(F.termsAndConditions.required, 2000)
  @MinLength(F.termsAndConditions.minLength, { message: F.termsAndConditions.tooShort })
  termsAndConditions?: string;

  @IsOptional()
  @Trim()
  @IsNotEmpty({ message: F.title.required })
  @MaxLength(F.title.maxLength, { message: F.title.tooLong })
  title?: string;

  @IsOptional()
  @Trim()
  @IsNotEmpty({ message: F.description.required })
  @MaxLength(F.description.maxLength, { message: F.description.tooLong })
  description?: string;

  @IsOptional()
  @WholeNumber(F.percentage.required, F.percentage.invalid, F.percentage.min, F.percentage.max)
  percentage?: number;

  @IsOptional()
  @WholeNumber(F.discountValue.required, F.discountValue.invalid, F.discountValue.min, 10_000_000)
  discountValue?: number;

  @IsOptional()
  @WholeNumber(F.requestedSlotId.required, F.requestedSlotId.unknown, 1, 2_147_483_647)
  requestedSlotId?: number;

  @IsOptional()
  @Trim()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: F.merchantUrl.invalid })
  merchantUrl?: string;

  @IsOptional()
  @Transform(toIdList)
  @ArrayMinSize(1, { message: F.categoryIds.required })
  @ArrayMaxSize(8, { message: F.categoryIds.unknown })
  @IsInt({ each: true, message: F.categoryIds.unknown })
  categoryIds?: number[];
}

import { registerDecorator } from 'class-validator';

function IsValidFutureDate() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isValidFutureDate',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => value instanceof Date && value.getTime() > Date.now(),
        defaultMessage: (args) => (args?.value instanceof Date ? F.expiryDate.past : F.expiryDate.invalid),
      },
    });
}
