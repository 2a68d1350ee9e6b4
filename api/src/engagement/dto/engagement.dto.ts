import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsOptional, RequiredText, Trim } from '../../infrastructure/http/field-decorators.js';
import { MOBILE_NUMBER } from '../../rules/accounts.js';
import {
  CAMPAIGN_FORM,
  CONTACT_FORM,
  EMAIL_MAX_LENGTH,
  LANGUAGE_MESSAGE,
  LANGUAGES,
  type Language,
  NEWSLETTER,
} from '../../rules/engagement.js';

/** The footer's box: `email`, or `EmailAddress` as the older client sends it. */
export class NewsletterSubscriptionDto {
  @ApiPropertyOptional({ example: 'asha@example.in' })
  @IsOptional()
  @Trim()
  @IsString({ message: NEWSLETTER.email.invalid })
  email?: string;

  @ApiPropertyOptional({ description: 'The older client’s name for `email`.' })
  @IsOptional()
  @Trim()
  @IsString({ message: NEWSLETTER.email.invalid })
  EmailAddress?: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails; the browser’s otherwise.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;
}

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

export class ContactMessageDto {
  @ApiProperty({ example: 'Asha Rao' })
  @RequiredText(CONTACT_FORM.name.required, CONTACT_FORM.name.maxLength)
  name: string;

  @ApiProperty({ example: 'asha@example.in' })
  @Trim()
  @IsNotEmpty({ message: CONTACT_FORM.email.required })
  @IsString({ message: CONTACT_FORM.email.invalid })
  @MaxLength(EMAIL_MAX_LENGTH, { message: CONTACT_FORM.email.invalid })
  @IsEmail({}, { message: CONTACT_FORM.email.invalid })
  email: string;

  @ApiPropertyOptional({ example: '9876543210', description: '10 digits when given.' })
  @Trim()
  @ValidateIf((form: ContactMessageDto) => isGiven(form.mobile))
  @IsString({ message: CONTACT_FORM.mobile.invalid })
  @Matches(MOBILE_NUMBER, { message: CONTACT_FORM.mobile.invalid })
  mobile?: string | null;

  @ApiProperty({ example: 'I could not reveal a code.' })
  @RequiredText(CONTACT_FORM.msg.required, CONTACT_FORM.msg.maxLength)
  msg: string;
}

/** react-admin sends the whole record back; only `handled` is changeable. */
export class ContactMessageChangesDto {
  @ApiProperty()
  @IsBoolean({ message: 'Handled is true or false.' })
  handled: boolean;

  @Allow() id?: unknown;
  @Allow() name?: unknown;
  @Allow() email?: unknown;
  @Allow() mobile?: unknown;
  @Allow() msg?: unknown;
  @Allow() receivedAt?: unknown;
  @Allow() handledAt?: unknown;
}

const toIdList = ({ value }: { value: unknown }) =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'string' && /^\d{1,10}$/.test(item) ? Number(item) : item))
    : value;

/** What both the new and the changed campaign accept besides subject and body. */
class CampaignFieldsDto {
  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @Transform(toIdList)
  @IsArray({ message: CAMPAIGN_FORM.featuredCouponIds.invalid })
  @ArrayMaxSize(CAMPAIGN_FORM.featuredCouponIds.max, { message: CAMPAIGN_FORM.featuredCouponIds.invalid })
  @IsInt({ each: true, message: CAMPAIGN_FORM.featuredCouponIds.invalid })
  @Min(1, { each: true, message: CAMPAIGN_FORM.featuredCouponIds.invalid })
  @Max(2_147_483_647, { each: true, message: CAMPAIGN_FORM.featuredCouponIds.invalid })
  featuredCouponIds?: number[];

  // react-admin sends the whole record back on edit; the read-only fields are ignored.
  @Allow() id?: unknown;
  @Allow() status?: unknown;
  @Allow() recipientsTotal?: unknown;
  @Allow() sentCount?: unknown;
  @Allow() skippedCount?: unknown;
  @Allow() progress?: unknown;
  @Allow() sendStartedAt?: unknown;
  @Allow() sentAt?: unknown;
  @Allow() createdAt?: unknown;
}

export class CampaignDto extends CampaignFieldsDto {
  @ApiProperty({ example: 'Diwali offers are here' })
  @RequiredText(CAMPAIGN_FORM.subject.required, CAMPAIGN_FORM.subject.maxLength)
  subject: string;

  @ApiProperty({ description: 'Plain text; blank lines separate paragraphs.' })
  @RequiredText(CAMPAIGN_FORM.body.required, CAMPAIGN_FORM.body.maxLength)
  body: string;
}

export class CampaignChangesDto extends CampaignFieldsDto {
  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(CAMPAIGN_FORM.subject.required, CAMPAIGN_FORM.subject.maxLength)
  subject?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RequiredText(CAMPAIGN_FORM.body.required, CAMPAIGN_FORM.body.maxLength)
  body?: string;
}
