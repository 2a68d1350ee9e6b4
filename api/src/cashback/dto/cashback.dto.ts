import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, registerDecorator, ValidateIf } from 'class-validator';
import { IsOptional, Nullable, Trim, WholeNumber } from '../../infrastructure/http/field-decorators.js';
import {
  CASHBACK_LANGUAGES,
  CASHBACK_LIMITS,
  CASHBACK_MESSAGES,
  type CashbackRate,
  type CashbackTexts,
  isCashbackRate,
} from '../../rules/cashback.js';
import { rupeesToPaise } from '../../rules/money.js';

/** A property checked by one function, with one message. */
function Checked(name: string, message: string, validate: (value: unknown) => boolean) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message },
      validator: { validate },
    });
}

const CONTROL = /\p{Cc}/u;
/** Line breaks are text in terms; other control characters are not. */
const CONTROL_BUT_LINES = /[^\P{Cc}\n\r\t]/u;

const isTexts = (value: unknown, maxLength: number) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).every((key) => (CASHBACK_LANGUAGES as readonly string[]).includes(key)) &&
  CASHBACK_LANGUAGES.every((language) => {
    const text = (value as Record<string, unknown>)[language];
    return (
      text === undefined ||
      (typeof text === 'string' && text.length <= maxLength && !CONTROL_BUT_LINES.test(text))
    );
  });

const isCategoryName = (name: unknown) =>
  typeof name === 'string' &&
  name.trim().length >= 1 &&
  name.trim().length <= CASHBACK_LIMITS.categoryName.maxLength &&
  !CONTROL.test(name);

const isCategories = (value: unknown) =>
  Array.isArray(value) &&
  value.length <= CASHBACK_LIMITS.categoriesMax &&
  value.every(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      Object.keys(entry).every((key) => key === 'name' || key === 'rate') &&
      isCategoryName(entry.name) &&
      isCashbackRate(entry.rate),
  );

/** Every language's text, an absent one empty. */
export const fullTexts = (texts: Partial<CashbackTexts>): CashbackTexts => ({
  en: texts.en?.trim() ?? '',
  hi: texts.hi?.trim() ?? '',
  te: texts.te?.trim() ?? '',
});

/** A store's cashback as an admin sets it (`PUT /api/admin/cashback-rates/:storeId`); left out: unchanged. */
export class StoreCashbackDto {
  @ApiPropertyOptional({
    example: { percent: '7.5' },
    nullable: true,
    description: '{"percent": "7.5"} or {"rupees": "50"}; null: the site’s default rate.',
  })
  @Nullable()
  @Checked('cashbackRate', CASHBACK_MESSAGES.rate, isCashbackRate)
  base?: CashbackRate | null;

  @ApiPropertyOptional({
    example: [{ name: 'Skin Care', rate: { percent: '7' } }],
    description: 'Every category rate of the store; categories left out are removed.',
  })
  @IsOptional()
  @Checked('cashbackCategories', CASHBACK_MESSAGES.categories, isCategories)
  categories?: Array<{ name: string; rate: CashbackRate }>;

  @ApiPropertyOptional({ example: { en: 'Not on gift cards.', hi: '', te: '' } })
  @IsOptional()
  @Checked('cashbackTexts', CASHBACK_MESSAGES.texts, (value) =>
    isTexts(value, CASHBACK_LIMITS.termsMaxLength),
  )
  terms?: Partial<CashbackTexts>;

  @ApiPropertyOptional({ example: { en: 'Gift cards, wallet top-ups.', hi: '', te: '' } })
  @IsOptional()
  @Checked('cashbackTexts', CASHBACK_MESSAGES.texts, (value) =>
    isTexts(value, CASHBACK_LIMITS.exclusionsMaxLength),
  )
  exclusions?: Partial<CashbackTexts>;

  @ApiPropertyOptional({ example: 60 })
  @IsOptional()
  @WholeNumber(
    CASHBACK_MESSAGES.confirmDays,
    CASHBACK_MESSAGES.confirmDays,
    CASHBACK_LIMITS.confirmDays.min,
    CASHBACK_LIMITS.confirmDays.max,
  )
  confirmDays?: number;

  @ApiPropertyOptional({ example: 30 })
  @IsOptional()
  @WholeNumber(
    CASHBACK_MESSAGES.claimWindowDays,
    CASHBACK_MESSAGES.claimWindowDays,
    CASHBACK_LIMITS.claimWindowDays.min,
    CASHBACK_LIMITS.claimWindowDays.max,
  )
  claimWindowDays?: number;

  @ApiPropertyOptional({ example: '2000', nullable: true, description: 'null: no cap.' })
  @Nullable()
  @Checked(
    'capRupees',
    CASHBACK_MESSAGES.capRupees,
    (value) => typeof value === 'string' && CASHBACK_LIMITS.rupees.test(value) && rupeesToPaise(value) > 0,
  )
  capRupees?: string | null;

  @ApiPropertyOptional({ description: 'Why, kept in the history.' })
  @IsOptional()
  @Trim()
  @IsString({ message: CASHBACK_MESSAGES.note })
  @MaxLength(CASHBACK_LIMITS.noteMaxLength, { message: CASHBACK_MESSAGES.note })
  note?: string;
}

/** A coupon's own rate (`PUT /api/admin/coupon-cashback-rates/:couponId`); null removes it. */
export class CouponCashbackDto {
  @ApiPropertyOptional({ example: { percent: '10' }, nullable: true })
  @ValidateIf((dto: CouponCashbackDto) => dto.rate !== null)
  @Checked('cashbackRate', CASHBACK_MESSAGES.rate, isCashbackRate)
  rate: CashbackRate | null;

  @ApiPropertyOptional({ description: 'Why, kept in the history.' })
  @IsOptional()
  @Trim()
  @IsString({ message: CASHBACK_MESSAGES.note })
  @MaxLength(CASHBACK_LIMITS.noteMaxLength, { message: CASHBACK_MESSAGES.note })
  note?: string;
}
