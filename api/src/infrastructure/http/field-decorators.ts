import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional as IsOptionalOrNull,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_RULES } from '../../rules/accounts.js';
import { CONTENT_LIMITS, normaliseMerchantUrl } from '../../rules/content.js';
import { textTooLong } from '../../rules/forms.js';
import { HTTP_MESSAGES } from '../../rules/http.js';

/**
 * A field that may be left out. One rule for every route: leaving a field out keeps (or defaults)
 * its value, and `null` is refused with a 400 naming the field, unless the field is declared
 * {@link Nullable} because null means something there (clearing an optional text, an image, a
 * rate). class-validator's own `IsOptional` lets null through to the handler, which then wrote it
 * into a NOT NULL column (a 500).
 */
export function IsOptional(validationOptions?: ValidationOptions) {
  return (target: object, propertyName: string) => {
    ValidateIf((_object, value) => value !== undefined, validationOptions)(target, propertyName);
    registerDecorator({
      name: 'notNull',
      target: target.constructor,
      propertyName,
      options: { message: HTTP_MESSAGES.notNull(propertyName) },
      validator: { validate: (value: unknown) => value !== null },
    });
  };
}

/** A field that may be left out or sent as null, where null means "clear it" (documented per field). */
export const Nullable = IsOptionalOrNull;

/** Trims surrounding spaces, so "   " counts as empty. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A required text field: trimmed, present, a string, and not longer than `maxLength`. */
export function RequiredText(required: string, maxLength = 200) {
  return applyDecorators(
    Trim(),
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    MaxLength(maxLength, { message: textTooLong(maxLength) }),
  );
}

/** A password that meets every rule, each failure with its own message. */
export function StrongPassword(required: string) {
  return applyDecorators(
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    MaxLength(PASSWORD_MAX_LENGTH, {
      message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
    }),
    ...PASSWORD_RULES.map((rule) => Matches(rule.test, { message: rule.message })),
  );
}

/**
 * Digits only (a number or a string of digits, as forms send them) within [min, max], turned
 * into a number. The older client accepted only digit keys; "12.5" or "1e3" are refused.
 */
export function WholeNumber(required: string, invalid: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return applyDecorators(
    Transform(({ value }) => {
      const text =
        typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value;
      if (typeof text !== 'string' || text === '') return text === '' ? undefined : text;
      return /^\d{1,15}$/.test(text) ? Number(text) : text;
    }),
    IsNotEmpty({ message: required }),
    IsInt({ message: invalid }),
    Min(min, { message: invalid }),
    Max(max, { message: invalid }),
  );
}

const FLAG_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  on: true,
  off: false,
};

/** A yes/no field; forms send it as text ("true", "false", "on", ...). */
export function Flag(invalid: string) {
  return applyDecorators(
    Transform(({ value }) =>
      typeof value === 'string' && value.trim().toLowerCase() in FLAG_WORDS
        ? FLAG_WORDS[value.trim().toLowerCase()]
        : value,
    ),
    IsBoolean({ message: invalid }),
  );
}

/**
 * A merchant's web address: one typed without a scheme is taken as https; it must then be an
 * http(s) URL with a real host name.
 */
export function MerchantUrl(required: string, invalid: string) {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? normaliseMerchantUrl(value) : value)),
    IsNotEmpty({ message: required }),
    IsString({ message: invalid }),
    IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: invalid }),
    MaxLength(CONTENT_LIMITS.merchantUrlMaxLength, { message: invalid }),
  );
}

/** Text a shopper searches with: optional, trimmed, at most `maxLength`, no control characters. */
export function SearchText(maxLength: number, invalid: string) {
  return applyDecorators(
    IsOptional() as PropertyDecorator,
    Trim(),
    IsString({ message: invalid }),
    MaxLength(maxLength),
    Matches(/^\P{Cc}*$/u, { message: invalid }),
  );
}
