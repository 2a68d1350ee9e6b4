/** SQL of sign-in: the account a sign-in names, with its password hash. */

/**
 * A shopper by email (any case, $1 as typed) or by mobile number ($1 its ten digits): an email
 * address never reads as a number, so the form of what was typed says which.
 */
export const USER_BY_EMAIL = 'SELECT id, password_hash FROM users WHERE lower(email) = lower($1)';
export const USER_BY_MOBILE = 'SELECT id, password_hash FROM users WHERE mobile_number = $1';

/**
 * A merchant by username or email ($1 as typed) or mobile number ($2, its ten digits when it is
 * one, else null), each unique among merchants. Should one merchant's username read as another's
 * email or number, the username wins: it is what merchants have always signed in with.
 */
export const MERCHANT_BY_NAME_EMAIL_OR_MOBILE = `
  SELECT id, password_hash FROM merchants
  WHERE lower(user_name) = lower($1) OR lower(email) = lower($1) OR mobile = $2
  ORDER BY lower(user_name) = lower($1) DESC, lower(email) = lower($1) DESC
  LIMIT 1`;

/** Admins sign in with their username; the email, when the form gives one, must match too. */
export const ADMIN_BY_USERNAME =
  'SELECT id, password_hash, email FROM admins WHERE lower(username) = lower($1)';
