import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { RequiredText } from '../../infrastructure/http/field-decorators.js';
import { MOBILE_NUMBER, normaliseMobile } from '../../rules/accounts.js';

/**
 * An Indian mobile number, kept as its ten digits whatever way it was written (+91, 0, spaces),
 * so the unique index and sign-in by mobile compare like with like.
 */
export function MobileNumber(required: string, invalid: string) {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? (normaliseMobile(value) ?? value) : value)),
    RequiredText(required, 20),
    Matches(MOBILE_NUMBER, { message: invalid }),
  );
}
