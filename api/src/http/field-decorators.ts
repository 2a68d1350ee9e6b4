import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_RULES } from '../rules/accounts.js';

/** Trims surrounding spaces, so "   " counts as empty. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A required text field: trimmed, present, a string, and not longer than `maxLength`. */
export function RequiredText(required: string, maxLength = 200) {
  return applyDecorators(
    Trim(),
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    MaxLength(maxLength, { message: `Must be at most ${maxLength} characters.` }),
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
