import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import {
  IsOptional,
  Nullable,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../infrastructure/http/field-decorators.js';
import { COUPON_REVIEW, SLOT_KINDS, SLOT_MESSAGES } from '../../rules/coupons.js';

export class ApproveCouponDto {
  @ApiPropertyOptional({ description: 'The slot to place the coupon in; the requested one when left out.' })
  @IsOptional()
  @WholeNumber('Choose a slot.', 'Choose a slot.', 1, 2_147_483_647)
  slotId?: number;
}

export class RejectCouponDto {
  @ApiProperty({ example: 'not clear text' })
  @RequiredText(COUPON_REVIEW.reasonRequired, 500)
  reason: string;
}

export class SlotDto {
  @ApiProperty({ example: 'Home page feature' })
  @RequiredText(SLOT_MESSAGES.name, 100)
  @MinLength(2, { message: SLOT_MESSAGES.name })
  name: string;

  @ApiProperty({ enum: SLOT_KINDS })
  @IsIn(SLOT_KINDS, { message: SLOT_MESSAGES.kind })
  kind: 'free' | 'paid';

  /** Rupees with at most two decimals, e.g. "499" or "499.50". */
  @ApiPropertyOptional({ example: '499.00' })
  @ValidateIf((slot: SlotDto) => slot.kind === 'paid' || slot.price !== undefined)
  @IsNotEmpty({ message: SLOT_MESSAGES.price })
  @Matches(/^\d{1,9}(\.\d{1,2})?$/, { message: SLOT_MESSAGES.price })
  @Trim()
  price?: string;

  @ApiProperty({ example: 10 })
  @WholeNumber(SLOT_MESSAGES.capacity, SLOT_MESSAGES.capacity, 1, 100_000)
  capacity: number;
}

export class SlotChangesDto {
  @IsOptional()
  @RequiredText(SLOT_MESSAGES.name, 100)
  name?: string;

  @IsOptional()
  @IsIn(SLOT_KINDS, { message: SLOT_MESSAGES.kind })
  kind?: 'free' | 'paid';

  @Nullable()
  @Trim()
  @Matches(/^\d{1,9}(\.\d{1,2})?$/, { message: SLOT_MESSAGES.price })
  price?: string | null;

  @IsOptional()
  @IsInt({ message: SLOT_MESSAGES.capacity })
  @Min(1, { message: SLOT_MESSAGES.capacity })
  @Max(100_000, { message: SLOT_MESSAGES.capacity })
  capacity?: number;

  @Nullable()
  @IsString()
  id?: unknown;
}
