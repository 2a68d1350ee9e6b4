import { SetMetadata } from '@nestjs/common';

export const NOT_REPLAYED = 'idempotency:not-replayed';

/**
 * A command route whose answer is never kept for a retry with the same `Idempotency-Key`: the
 * feature that owns the route marks it. Sign-in answers carry a new session's credentials
 * (cookies, a bearer token), which are never stored; sending a sign-in again is harmless anyway: it
 * starts another session.
 */
export const NotReplayed = () => SetMetadata(NOT_REPLAYED, true);
