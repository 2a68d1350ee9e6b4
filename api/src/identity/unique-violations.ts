import { ConflictException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

/**
 * Turns a unique-index violation into a 409 naming the field, using the index names of the
 * identity migration. Anything else is rethrown.
 */
export function conflictFromUniqueViolation(
  error: unknown,
  message: string,
  fieldsByIndex: Record<string, { field: string; message: string }>,
): never {
  const driverError =
    error instanceof QueryFailedError
      ? (error.driverError as { code?: string; constraint?: string })
      : undefined;
  const field =
    driverError?.code === '23505' && driverError.constraint
      ? fieldsByIndex[driverError.constraint]
      : undefined;
  if (!field) throw error;
  throw new ConflictException({ statusCode: 409, message, errors: { [field.field]: [field.message] } });
}

export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}

/**
 * Runs a registration; when two registrations drew the same new referral code at once, it runs
 * again with a fresh draw. Any other unique violation becomes a 409 naming its field.
 */
export async function registerOnce<T>(
  attempt: () => Promise<T>,
  duplicate: { message: string; fieldsByIndex: Record<string, { field: string; message: string }> },
): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUniqueViolationOf(error, 'referral_codes_pkey')) {
        conflictFromUniqueViolation(error, duplicate.message, duplicate.fieldsByIndex);
      }
    }
  }
}
