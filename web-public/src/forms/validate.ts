/**
 * The forms' checks, as pure functions of the values: each returns `{field: message}` for the
 * fields that fail, with the messages of the shared rules (translated when shown).
 */
import {
  CONTACT_FORM,
  EMAIL_SHAPE,
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_FORM,
  MOBILE_NUMBER,
  NEWSLETTER,
  normaliseMobile,
  PASSWORD_RULES,
  USER_REGISTRATION as R,
  USER_SIGN_IN as S,
  textTooLong,
} from './rules.js';

export type Errors<F extends string> = Partial<Record<F, string>>;

export type RegistrationField = 'userName' | 'email' | 'password' | 'mobileNumber' | 'address' | 'referredBy';
export type SignInField = 'emailOrMobile' | 'password';
export type ContactField = 'name' | 'email' | 'mobile' | 'msg';
export type ProfileField = 'userName' | 'mobileNumber' | 'address';
export type GrievanceField = 'name' | 'email' | 'category' | 'subject' | 'message';

const blank = (value: string | undefined) => !value || value.trim() === '';

export function validateRegistration(values: Record<RegistrationField, string>): Errors<RegistrationField> {
  const errors: Errors<RegistrationField> = {};
  if (blank(values.userName)) errors.userName = R.userName.required;
  else if (values.userName.trim().length < R.userName.minLength) errors.userName = R.userName.tooShort;
  if (blank(values.email)) errors.email = R.email.required;
  else if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = R.email.invalid;
  if (!values.password) errors.password = R.password.required;
  else {
    const broken = PASSWORD_RULES.find((rule) => !rule.test.test(values.password));
    if (broken) errors.password = broken.message;
  }
  if (blank(values.mobileNumber)) errors.mobileNumber = R.mobileNumber.required;
  else if (!MOBILE_NUMBER.test(values.mobileNumber.trim())) errors.mobileNumber = R.mobileNumber.invalid;
  if (blank(values.address)) errors.address = R.address.required;
  return errors;
}

export function validateSignIn(values: Record<SignInField, string>): Errors<SignInField> {
  const errors: Errors<SignInField> = {};
  const login = values.emailOrMobile.trim();
  if (!login) errors.emailOrMobile = S.emailOrMobile.required;
  else if (!EMAIL_SHAPE.test(login) && !normaliseMobile(login))
    errors.emailOrMobile = S.emailOrMobile.invalid;
  if (!values.password) errors.password = S.password.required;
  else if (values.password.length < S.password.minLength) errors.password = S.password.tooShort;
  return errors;
}

export function validateProfile(values: Record<ProfileField, string>): Errors<ProfileField> {
  const { userName, mobileNumber, address } = validateRegistration({
    ...values,
    email: 'x@y.in',
    password: 'Aa1!aaaa',
    referredBy: '',
  });
  return Object.fromEntries(
    Object.entries({ userName, mobileNumber, address }).filter(([, message]) => message),
  ) as Errors<ProfileField>;
}

export function validateContact(values: Record<ContactField, string>): Errors<ContactField> {
  const errors: Errors<ContactField> = {};
  if (blank(values.name)) errors.name = CONTACT_FORM.name.required;
  else if (values.name.trim().length > CONTACT_FORM.name.maxLength)
    errors.name = textTooLong(CONTACT_FORM.name.maxLength);
  if (blank(values.email)) errors.email = CONTACT_FORM.email.required;
  else if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = CONTACT_FORM.email.invalid;
  if (!blank(values.mobile) && !MOBILE_NUMBER.test(values.mobile.trim())) {
    errors.mobile = CONTACT_FORM.mobile.invalid;
  }
  if (blank(values.msg)) errors.msg = CONTACT_FORM.msg.required;
  else if (values.msg.trim().length > CONTACT_FORM.msg.maxLength)
    errors.msg = textTooLong(CONTACT_FORM.msg.maxLength);
  return errors;
}

export function validateGrievance(values: Record<GrievanceField, string>): Errors<GrievanceField> {
  const errors: Errors<GrievanceField> = {};
  const G = GRIEVANCE_FORM;
  if (blank(values.name)) errors.name = G.name.required;
  else if (values.name.trim().length > G.name.maxLength) errors.name = textTooLong(G.name.maxLength);
  if (blank(values.email)) errors.email = G.email.required;
  else if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = G.email.invalid;
  if (!(GRIEVANCE_CATEGORIES as readonly string[]).includes(values.category))
    errors.category = G.category.invalid;
  if (blank(values.subject)) errors.subject = G.subject.required;
  else if (values.subject.trim().length > G.subject.maxLength)
    errors.subject = textTooLong(G.subject.maxLength);
  if (blank(values.message)) errors.message = G.message.required;
  else if (values.message.trim().length > G.message.maxLength)
    errors.message = textTooLong(G.message.maxLength);
  return errors;
}

export function validateNewsletter(email: string): string | undefined {
  if (blank(email)) return NEWSLETTER.email.required;
  if (!EMAIL_SHAPE.test(email.trim())) return NEWSLETTER.email.invalid;
  return undefined;
}

/** The first message of each field of a server's 400/409 answer. */
export function serverFieldErrors<F extends string>(errors: Record<string, string[]>, fields: readonly F[]) {
  const result: Errors<F> = {};
  for (const field of fields) {
    const messages = errors[field];
    if (messages?.length) result[field] = messages[0];
  }
  return result;
}
