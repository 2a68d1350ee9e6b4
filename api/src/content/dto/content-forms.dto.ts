import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import {
  Flag,
  IsOptional,
  MerchantUrl,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../http/field-decorators.js';
import {
  BANNER_POSITIONS,
  type BannerPosition,
  FLASH_CONTENT_TYPES,
  type FlashContentType,
  CONTENT_LIMITS as L,
  CONTENT_MESSAGES as M,
} from '../../rules/content.js';

// No property defaults here: a change form made with PartialType inherits them, and would reset
// fields the admin did not send. Defaults are applied when a record is made.

export class HeroImageForm {
  @ApiProperty({ example: 'https://glow.in/diwali' })
  @MerchantUrl(M.merchantUrlRequired, M.merchantUrlInvalid)
  merchantUrl: string;

  @ApiPropertyOptional({ description: 'Smaller first', default: 0 })
  @IsOptional()
  @WholeNumber(M.sortOrder, M.sortOrder, 0, L.maxSortOrder)
  sortOrder?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @Flag(M.flag)
  isActive?: boolean;
}

export class HeroImageChanges extends PartialType(HeroImageForm) {}

export class BannerForm extends HeroImageForm {
  @ApiProperty({ enum: BANNER_POSITIONS })
  @IsNotEmpty({ message: M.positionInvalid })
  @IsIn(BANNER_POSITIONS, { message: M.positionInvalid })
  position: BannerPosition;
}

export class BannerChanges extends PartialType(BannerForm) {}

export class SeasonalOfferForm {
  @ApiProperty({ minimum: 1, maximum: 4 })
  @WholeNumber(M.seasonalAllRequired, M.seasonalSlot, 1, 4)
  slot: number;

  @ApiProperty({ example: 'https://glow.in/summer' })
  @MerchantUrl(M.seasonalAllRequired, M.merchantUrlInvalid)
  merchantUrl: string;
}

export class SeasonalOfferChanges {
  @ApiPropertyOptional({ example: 'https://glow.in/summer' })
  @IsOptional()
  @MerchantUrl(M.seasonalAllRequired, M.merchantUrlInvalid)
  merchantUrl?: string;
}

export class FlashTextForm {
  @ApiPropertyOptional({ default: 'Get up to 50% OFF new season styles, Limited Time Only' })
  @IsOptional()
  @RequiredText(M.flashTextRequired, L.flashTextMaxLength)
  text?: string;

  @ApiPropertyOptional({ enum: FLASH_CONTENT_TYPES, default: 'text' })
  @IsOptional()
  @IsIn(FLASH_CONTENT_TYPES, { message: M.flashContentType })
  contentType?: FlashContentType;

  @ApiPropertyOptional({ default: 'toFlash' })
  @IsOptional()
  @Trim()
  @IsNotEmpty({ message: M.positionRequired })
  @IsString({ message: M.positionRequired })
  @MaxLength(L.positionMaxLength, { message: M.positionRequired })
  position?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @Flag(M.flag)
  isActive?: boolean;

  @ApiPropertyOptional({ example: 'https://glow.in/sale' })
  @IsOptional()
  @MerchantUrl(M.merchantUrlRequired, M.merchantUrlInvalid)
  merchantUrl?: string;
}

export class FlashTextChanges extends PartialType(FlashTextForm) {}

export class BestOfferBannerForm {
  @ApiProperty({ example: 'https://glow.in/best' })
  @MerchantUrl(M.merchantUrlRequired, M.merchantUrlInvalid)
  merchantUrl: string;

  @ApiPropertyOptional({ default: 'Bo' })
  @IsOptional()
  @RequiredText(M.nameRequired, L.nameMaxLength)
  name?: string;

  @ApiPropertyOptional({ default: 'Bo' })
  @IsOptional()
  @RequiredText(M.typeRequired, L.nameMaxLength)
  type?: string;

  @ApiPropertyOptional({ default: 'Bo' })
  @IsOptional()
  @RequiredText(M.frameRequired, L.nameMaxLength)
  frame?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @Flag(M.flag)
  isActive?: boolean;
}

export class BestOfferBannerChanges extends PartialType(BestOfferBannerForm) {}
