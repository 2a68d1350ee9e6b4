import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  NotEquals,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  Flag,
  IsOptional,
  Nullable,
  RequiredText,
  Trim,
  WholeNumber,
} from '../../infrastructure/http/field-decorators.js';
import {
  FEED_CREDENTIAL_KINDS,
  FEED_CSV_SEPARATORS,
  FEED_FIELDS,
  FEED_FORMATS,
  FEED_MODES,
  FEED_POSTBACK,
  FEED_POSTBACK_FIELDS,
  FEED_POSTBACK_MESSAGES,
  FEED_POSTBACK_STATUSES,
  FEED_REVIEW_POLICIES,
  FEED_SCHEDULES_MINUTES,
  type FeedCredentialKind,
  type FeedCsvSeparator,
  type FeedFormat,
  type FeedMode,
  type FeedReviewPolicy,
  FEED_SOURCE_LIMITS as L,
  FEED_SOURCE_MESSAGES as M,
  REQUIRED_FEED_FIELDS,
  REQUIRED_FEED_POSTBACK_FIELDS,
} from '../../rules/feeds.js';

/** An http(s) URL naming a host; which hosts may be fetched is the fetcher's rule, not the form's. */
function FeedUrl() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'feedUrl',
      target: target.constructor,
      propertyName,
      options: { message: M.url },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || value.length > L.urlMax) return false;
          try {
            const url = new URL(value);
            return ['http:', 'https:'].includes(url.protocol) && url.hostname.length > 0;
          } catch {
            return false;
          }
        },
      },
    });
}

/** A header (`name`, `value`) or basic (`username`, `password`) credential, written whole. */
export class FeedCredentialDto {
  @ApiProperty({ enum: FEED_CREDENTIAL_KINDS })
  @IsIn(FEED_CREDENTIAL_KINDS, { message: M.credentialKind })
  kind: FeedCredentialKind;

  @ApiPropertyOptional({ example: 'Authorization' })
  @ValidateIf((credential: FeedCredentialDto) => credential.kind === 'header')
  @IsString({ message: M.credentialHeaderName })
  @Matches(/^[A-Za-z0-9-]{1,100}$/, { message: M.credentialHeaderName })
  name?: string;

  @ApiPropertyOptional({ example: 'Bearer …' })
  @ValidateIf((credential: FeedCredentialDto) => credential.kind === 'header')
  @IsNotEmpty({ message: M.credentialValue })
  @IsString({ message: M.credentialValue })
  @MaxLength(L.credentialValueMax, { message: M.credentialValue })
  value?: string;

  @ApiPropertyOptional()
  @ValidateIf((credential: FeedCredentialDto) => credential.kind === 'basic')
  @IsNotEmpty({ message: M.credentialUsername })
  @IsString({ message: M.credentialUsername })
  @MaxLength(L.credentialNameMax, { message: M.credentialUsername })
  username?: string;

  @ApiPropertyOptional()
  @ValidateIf((credential: FeedCredentialDto) => credential.kind === 'basic')
  @IsNotEmpty({ message: M.credentialPassword })
  @IsString({ message: M.credentialPassword })
  @MaxLength(L.credentialValueMax, { message: M.credentialPassword })
  password?: string;
}

/** The header of the column that fills each field; the fields a mapped CSV needs are required. */
export class FeedCsvColumnsDto {}
for (const field of FEED_FIELDS) {
  const prototype = FeedCsvColumnsDto.prototype;
  if (REQUIRED_FEED_FIELDS.includes(field)) {
    RequiredText(M.mappingRequired, L.columnMax)(prototype, field);
  } else {
    IsOptional()(prototype, field);
    Trim()(prototype, field);
    IsNotEmpty({ message: M.mappingColumn })(prototype, field);
    IsString({ message: M.mappingColumn })(prototype, field);
    MaxLength(L.columnMax, { message: M.mappingColumn })(prototype, field);
  }
}

export class FeedCsvMappingDto {
  @ApiProperty({ example: { rowId: 'id', advertiserId: 'store_id', title: 'title' } })
  @IsObject({ message: M.mappingRequired })
  @ValidateNested()
  @Type(() => FeedCsvColumnsDto)
  columns: Record<string, string>;

  @ApiPropertyOptional({ enum: FEED_CSV_SEPARATORS, default: ',' })
  @IsOptional()
  @IsIn(FEED_CSV_SEPARATORS, { message: M.separator })
  separator?: FeedCsvSeparator;
}

/** The name of each field as the network sends it; the unrequired ones may be null (not sent). */
export class FeedPostbackFieldsDto {}
for (const field of FEED_POSTBACK_FIELDS) {
  const prototype = FeedPostbackFieldsDto.prototype;
  if ((REQUIRED_FEED_POSTBACK_FIELDS as readonly string[]).includes(field)) {
    Trim()(prototype, field);
    IsNotEmpty({ message: FEED_POSTBACK_MESSAGES.fieldRequired(field) })(prototype, field);
    IsString({ message: FEED_POSTBACK_MESSAGES.fieldRequired(field) })(prototype, field);
  } else {
    Nullable()(prototype, field);
    Trim()(prototype, field);
    IsString({ message: FEED_POSTBACK_MESSAGES.fieldName })(prototype, field);
  }
  Matches(FEED_POSTBACK.fieldName, { message: FEED_POSTBACK_MESSAGES.fieldName })(prototype, field);
  NotEquals(FEED_POSTBACK.tokenParam, { message: FEED_POSTBACK_MESSAGES.fieldName })(prototype, field);
}

/** The network's words for each status, compared without case. */
export class FeedPostbackStatusesDto {}
for (const status of FEED_POSTBACK_STATUSES) {
  const prototype = FeedPostbackStatusesDto.prototype;
  const options = { message: FEED_POSTBACK_MESSAGES.statusWords };
  IsArray(options)(prototype, status);
  ArrayMinSize(1, options)(prototype, status);
  ArrayMaxSize(FEED_POSTBACK.statusWordsMax, options)(prototype, status);
  IsString({ ...options, each: true })(prototype, status);
  IsNotEmpty({ ...options, each: true })(prototype, status);
  MaxLength(FEED_POSTBACK.statusWordMax, { ...options, each: true })(prototype, status);
}

/** How a network's postbacks name a purchase's fields and statuses (the format's preset when left out). */
export class FeedPostbackMappingDto {
  @ApiProperty({ example: { clickId: 'subid', orderId: 'order_id', orderAmount: 'order_sum' } })
  @IsObject({ message: FEED_POSTBACK_MESSAGES.mappingInvalid })
  @ValidateNested()
  @Type(() => FeedPostbackFieldsDto)
  fields: Record<string, string | null>;

  @ApiProperty({ example: { pending: ['pending'], approved: ['approved'], declined: ['declined'] } })
  @IsObject({ message: FEED_POSTBACK_MESSAGES.mappingInvalid })
  @ValidateNested()
  @Type(() => FeedPostbackStatusesDto)
  statuses: Record<string, string[]>;
}

/** A source's settings but its name and format, each with its own message. */
class FeedSourceSettingsDto {
  /** null: an uploaded feed (no address). */
  @ApiPropertyOptional({ example: 'https://api.admitad.com/coupons/?website=1', nullable: true })
  @Nullable()
  @Trim()
  @FeedUrl()
  url?: string | null;

  /** Write-only. Left out: kept as it is; null: cleared. */
  @ApiPropertyOptional({ type: FeedCredentialDto, nullable: true })
  @Nullable()
  @IsObject({ message: M.credentialKind })
  @ValidateNested()
  @Type(() => FeedCredentialDto)
  credential?: FeedCredentialDto | null;

  /** null: run only on demand ("Run now", an upload). */
  @ApiPropertyOptional({ enum: FEED_SCHEDULES_MINUTES, nullable: true })
  @Nullable()
  @IsIn(FEED_SCHEDULES_MINUTES, { message: M.schedule })
  scheduleMinutes?: number | null;

  @ApiPropertyOptional({ enum: FEED_MODES })
  @IsOptional()
  @IsIn(FEED_MODES, { message: M.mode })
  mode?: FeedMode;

  @ApiPropertyOptional({ description: 'The slot its coupons go live in; a free slot when left out.' })
  @IsOptional()
  @WholeNumber(M.slot, M.slot, 1, 2_147_483_647)
  slotId?: number;

  @ApiPropertyOptional({ enum: FEED_REVIEW_POLICIES })
  @IsOptional()
  @IsIn(FEED_REVIEW_POLICIES, { message: M.reviewPolicy })
  reviewPolicy?: FeedReviewPolicy;

  /** A mapped CSV's columns; the other formats have none. */
  @ApiPropertyOptional({ type: FeedCsvMappingDto, nullable: true })
  @Nullable()
  @IsObject({ message: M.mappingRequired })
  @ValidateNested()
  @Type(() => FeedCsvMappingDto)
  mapping?: FeedCsvMappingDto | null;

  @ApiPropertyOptional({ example: 'subid' })
  @IsOptional()
  @IsString({ message: M.subIdParam })
  @Matches(L.subIdParam, { message: M.subIdParam })
  subIdParam?: string;

  /** Left out: kept, or the new format's preset when the format changes. */
  @ApiPropertyOptional({ type: FeedPostbackMappingDto })
  @IsOptional()
  @IsObject({ message: FEED_POSTBACK_MESSAGES.mappingInvalid })
  @ValidateNested()
  @Type(() => FeedPostbackMappingDto)
  postbackMapping?: FeedPostbackMappingDto;

  @ApiPropertyOptional()
  @IsOptional()
  @Flag(M.enabled)
  enabled?: boolean;
}

/** A new source: a name and a format at least. */
export class FeedSourceDto extends FeedSourceSettingsDto {
  @ApiProperty({ example: 'Admitad coupons' })
  @RequiredText(M.nameRequired, L.nameMax)
  name: string;

  @ApiProperty({ enum: FEED_FORMATS })
  @IsNotEmpty({ message: M.format })
  @IsIn(FEED_FORMATS, { message: M.format })
  format: FeedFormat;
}

/** The fields a source's edit may change; what is left out stays as it is. */
export class FeedSourceChangesDto extends FeedSourceSettingsDto {
  @ApiPropertyOptional({ example: 'Admitad coupons' })
  @IsOptional()
  @RequiredText(M.nameRequired, L.nameMax)
  name?: string;

  @ApiPropertyOptional({ enum: FEED_FORMATS })
  @IsOptional()
  @IsIn(FEED_FORMATS, { message: M.format })
  format?: FeedFormat;
}
