import { BadRequestException, type ValidationError, ValidationPipe } from '@nestjs/common';

/** The spec's words for a form that did not pass; the details are in `errors`. */
export const INVALID_INPUT_MESSAGE = 'Please fill all required fields correctly.';
export const UNKNOWN_FIELD_MESSAGE = 'This field is not accepted.';

export type FieldErrors = Record<string, string[]>;

/** Constraints that mean "missing": when one fails, the field's other rules say nothing new. */
const REQUIRED_CONSTRAINTS = new Set(['notNull', 'isNotEmpty', 'isDefined']);

/**
 * Flattens class-validator's tree into `{ "field" | "parent.child": [messages] }`. Messages come
 * in the order the decorators are written (class-validator lists them bottom-up), and a missing
 * value reports only that it is required.
 */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {}).reverse();
    const required = constraints.find(([name]) => REQUIRED_CONSTRAINTS.has(name));
    const messages = (required ? [required] : constraints).map(([name, message]) =>
      name === 'whitelistValidation' ? UNKNOWN_FIELD_MESSAGE : message,
    );
    // Several rules may share one message ("a whole number from 1 to 100"): say it once.
    if (messages.length > 0) result[path] = [...new Set(messages)];
    if (error.children?.length) Object.assign(result, fieldErrors(error.children, path));
  }
  return result;
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new BadRequestException({
        statusCode: 400,
        message: INVALID_INPUT_MESSAGE,
        errors: fieldErrors(errors),
      }),
  });
}
