import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import {
  Flag,
  IsOptional,
  MerchantUrl,
  Nullable,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../infrastructure/http/field-decorators.js';
import {
  BANNER_POSITIONS,
  type BannerPosition,
  FLASH_CONTENT_TYPES,
  type FlashContentType,
  CONTENT_LIMITS as L,
  CONTENT_MESSAGES as M,
} from '../../rules/content.js';
import { textTooLong } from '../../rules/forms.js';

// No property defaults here: a change form made with PartialType inherits them, and would reset
// fields the admin did not send. Defaults are applied when a record is made.

/**
 * A Hindi or Telugu text beside its English one: trimmed, at most `maxLength`; empty or null
 * clears it (forms send an emptied field as ''), and English is shown in its place.
 */
const Translation = (maxLength: number) =>
  applyDecorators(
    Transform(({ value }) => {
      const text = typeof value === 'string' ? value.trim() : value;
      return text === '' ? null : text;
    }),
    Nullable(),
    IsString({ message: M.textInvalid }),
    MaxLength(maxLength, { message: textTooLong(maxLength) }),
  );

/** A picture's title and alt text: English required, Hindi and Telugu optional. */
export class PictureTexts {
  @ApiProperty({ example: 'Festive glow: up to 60% off skin care', maxLength: L.titleMaxLength })
  @RequiredText(M.titleRequired, L.titleMaxLength)
  title: string;

  @ApiPropertyOptional({ example: 'त्योहारी निखार: स्किन केयर पर 60% तक की छूट', nullable: true })
  @Translation(L.titleMaxLength)
  titleHi?: string | null;

  @ApiPropertyOptional({ example: 'పండుగ మెరుపు: స్కిన్ కేర్‌పై 60% వరకు తగ్గింపు', nullable: true })
  @Translation(L.titleMaxLength)
  titleTe?: string | null;

  @ApiProperty({ example: 'Face serum bottles on a festive orange table', maxLength: L.altTextMaxLength })
  @RequiredText(M.altTextRequired, L.altTextMaxLength)
  altText: string;

  @ApiPropertyOptional({ nullable: true })
  @Translation(L.altTextMaxLength)
  altTextHi?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @Translation(L.altTextMaxLength)
  altTextTe?: string | null;
}

export class HeroImageForm extends PictureTexts {
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

export class SeasonalOfferForm extends PictureTexts {
  @ApiProperty({ minimum: 1, maximum: 4 })
  @WholeNumber(M.seasonalAllRequired, M.seasonalSlot, 1, 4)
  slot: number;

  @ApiProperty({ example: 'https://glow.in/summer' })
  @MerchantUrl(M.seasonalAllRequired, M.merchantUrlInvalid)
  merchantUrl: string;
}

export class SeasonalOfferChanges extends PartialType(PictureTexts) {
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

  @ApiPropertyOptional({ example: 'नए सीज़न के स्टाइल पर 50% तक की छूट', nullable: true })
  @Translation(L.flashTextMaxLength)
  textHi?: string | null;

  @ApiPropertyOptional({ example: 'కొత్త సీజన్ స్టైల్స్‌పై 50% వరకు తగ్గింపు', nullable: true })
  @Translation(L.flashTextMaxLength)
  textTe?: string | null;

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

  @ApiPropertyOptional({ nullable: true })
  @Translation(L.nameMaxLength)
  nameHi?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @Translation(L.nameMaxLength)
  nameTe?: string | null;

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
