import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUrl, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { RequiredText, Trim } from '../../infrastructure/http/field-decorators.js';
import { FEED_ADVERTISER_LIMITS as L, FEED_ADVERTISER_MESSAGES as M } from '../../rules/feeds.js';

/** Digits sent as text (forms, react-admin's reference inputs) become a number. */
const toId = () =>
  Transform(({ value }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value,
  );

/** The store an advertiser is: a merchant id. */
export class FeedAdvertiserMappingDto {
  @ApiProperty({ example: 12 })
  @toId()
  @IsNotEmpty({ message: M.merchantRequired })
  @IsInt({ message: M.merchantUnknown })
  @Min(1, { message: M.merchantUnknown })
  @Max(2_147_483_647, { message: M.merchantUnknown })
  merchantId: number;
}

/** A new store without an account for an advertiser; the logo comes as the multipart `logo` file. */
export class FeedAdvertiserStoreDto {
  @ApiProperty({ example: 'Myntra' })
  @RequiredText(M.storeName, L.storeNameMaxLength)
  name: string;

  @ApiProperty({ example: 'https://www.myntra.com' })
  @Trim()
  @IsNotEmpty({ message: M.siteUrl })
  @IsString({ message: M.siteUrl })
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: M.siteUrl })
  @MaxLength(L.siteUrlMaxLength, { message: M.siteUrl })
  siteUrl: string;
}

/** Our category a network's category stands for; null for none. */
export class FeedCategoryMappingDto {
  @ApiPropertyOptional({ example: 3, nullable: true })
  @toId()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: M.categoryUnknown })
  @Min(1, { message: M.categoryUnknown })
  @Max(2_147_483_647, { message: M.categoryUnknown })
  categoryId: number | null;
}

/** A registered merchant who takes over a store without an account. */
export class StoreClaimDto {
  @ApiProperty({ example: 40 })
  @toId()
  @IsNotEmpty({ message: M.claimMerchantRequired })
  @IsInt({ message: M.claimMerchantInvalid })
  @Min(1, { message: M.claimMerchantInvalid })
  @Max(2_147_483_647, { message: M.claimMerchantInvalid })
  merchantId: number;
}
