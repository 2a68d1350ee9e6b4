import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import {
  IsOptional as IsOptionalNotNull,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../infrastructure/http/field-decorators.js';
import { CASHBACK_LIMITS } from '../../rules/cashback.js';
import { CLICK_ID } from '../../rules/clicks.js';
import { POSTBACK } from '../../rules/engagement.js';

const RUPEES = /^\d{1,9}(\.\d{1,2})?$/;
/** A JSON number (1299.5) is read as the decimal it was written as. */
const decimalText = ({ value }: { value: unknown }) =>
  typeof value === 'number' && Number.isFinite(value)
    ? String(value)
    : typeof value === 'string'
      ? value.trim()
      : value;

/** A purchase as a merchant or an affiliate network reports it. */
export class PurchasePostbackDto {
  @ApiProperty({ example: 'ORD-2026-000123', description: 'Unique per merchant; a repeat is recorded once.' })
  @RequiredText(POSTBACK.purchaseReference, 100)
  purchaseReference: string;

  @ApiPropertyOptional({
    example: 'AZqJ1bXc9kQ2mR4tVw8yZa',
    description:
      'The click id the shopper arrived with (in your sub-id parameter): the purchase is credited to the ' +
      'shopper who clicked, for the coupon clicked; couponId and referralCode are then not needed.',
  })
  @IsOptionalNotNull()
  @IsString({ message: POSTBACK.clickId })
  @Matches(CLICK_ID, { message: POSTBACK.clickId })
  clickId?: string;

  @ApiProperty({ example: 12, description: 'Optional with a clickId; it must then be the click’s coupon.' })
  @ValidateIf((dto: PurchasePostbackDto) => dto.clickId === undefined || dto.couponId !== undefined)
  @WholeNumber(POSTBACK.couponId, POSTBACK.couponId, 1, 2_147_483_647)
  couponId?: number;

  @ApiProperty({ example: 'K7QX2M9P', description: 'The shopper’s referral code; not read with a clickId.' })
  @ValidateIf((dto: PurchasePostbackDto) => dto.clickId === undefined)
  @RequiredText(POSTBACK.referralCode, 20)
  referralCode?: string;

  @ApiProperty({ example: 'online' })
  @RequiredText(POSTBACK.purchaseType, 50)
  purchaseType: string;

  @ApiProperty({ example: '1299.50', description: 'Rupees with up to 2 decimals.' })
  @Transform(decimalText)
  @IsNotEmpty({ message: POSTBACK.purchaseAmount })
  @IsString({ message: POSTBACK.purchaseAmount })
  @Matches(RUPEES, { message: POSTBACK.purchaseAmount })
  purchaseAmount: string;

  @ApiPropertyOptional({
    example: '2026-11-24T10:15:00+05:30',
    description: 'When the purchase was made (default: when reported); its coupon must have been live then.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: POSTBACK.purchasedAt })
  purchasedAt?: string;

  @ApiPropertyOptional({
    example: 'Skin Care',
    description: 'The product category bought: the store’s rate for it applies, if it has one.',
  })
  @IsOptionalNotNull()
  @Trim()
  @IsString({ message: POSTBACK.category })
  @MaxLength(CASHBACK_LIMITS.categoryName.maxLength, { message: POSTBACK.category })
  @Matches(/^\P{Cc}*$/u, { message: POSTBACK.category })
  category?: string;
}

export class EarningsPageQuery {
  @IsOptional()
  @Matches(/^\d{1,6}$/, { message: 'The page is a whole number from 1.' })
  page?: string;

  @IsOptional()
  @Matches(/^\d{1,3}$/, { message: 'Per page is a whole number from 1 to 100.' })
  perPage?: string;
}
