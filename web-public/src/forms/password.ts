/**
 * Checks of the password forms (forgot, reset, change), pure functions of the values with the
 * shared rules' messages, like the other forms in validate.ts.
 */
import {
  EMAIL_SHAPE,
  PASSWORD_CHANGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RESET,
  PASSWORD_RULES,
} from './rules.js';
import type { Errors } from './validate.js';

export type ForgotField = 'email';
export type ResetField = 'password';
export type ChangeField = 'currentPassword' | 'newPassword';

/** The first password rule a new password breaks, in the rules' order. */
export function passwordProblem(password: string, required: string): string | undefined {
  if (!password) return required;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  return PASSWORD_RULES.find((rule) => !rule.test.test(password))?.message;
}

export function validateForgot(values: Record<ForgotField, string>): Errors<ForgotField> {
  const email = values.email.trim();
  if (!email) return { email: PASSWORD_RESET.email.required };
  return EMAIL_SHAPE.test(email) ? {} : { email: PASSWORD_RESET.email.invalid };
}

export function validateReset(values: Record<ResetField, string>): Errors<ResetField> {
  const problem = passwordProblem(values.password, PASSWORD_RESET.password.required);
  return problem ? { password: problem } : {};
}

export function validateChange(values: Record<ChangeField, string>): Errors<ChangeField> {
  const errors: Errors<ChangeField> = {};
  if (!values.currentPassword) errors.currentPassword = PASSWORD_CHANGE.currentPassword.required;
  const problem = passwordProblem(values.newPassword, PASSWORD_CHANGE.newPassword.required);
  if (problem) errors.newPassword = problem;
  return errors;
}
