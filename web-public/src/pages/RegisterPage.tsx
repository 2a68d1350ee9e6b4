import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import { HOUSE_REFERRAL_CODE, USER_REGISTRATION as R } from '../forms/rules';
import { type RegistrationField, serverFieldErrors, validateRegistration } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

const FIELDS: RegistrationField[] = [
  'userName',
  'email',
  'password',
  'mobileNumber',
  'address',
  'referredBy',
];
/** How long the duplicate-account message stays (spec §8). */
const DUPLICATE_MESSAGE_MS = 5000;

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) =>
  Promise.all([loadTexts('account', lang), loadTexts('forms', lang)]).then(() => undefined);

export default function RegisterPage() {
  useTexts('account', 'forms');
  const { t, msg } = useI18n();
  usePageTitle(t('register.title'));
  const [, navigate] = useLocation();
  const search = useSearch();
  // The code of the referral link the visitor came by (/register?ref=CODE).
  const [referral] = useState(() => new URLSearchParams(search).get('ref')?.trim() ?? '');
  const form = useForm<RegistrationField>(
    {
      userName: '',
      email: '',
      password: '',
      mobileNumber: '',
      address: '',
      referredBy: referral || HOUSE_REFERRAL_CODE,
    },
    useCallback(validateRegistration, []),
  );
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [duplicate, setDuplicate] = useState(false);
  // The link's code names nobody (mistyped, cut short): say so now, in a field the shopper can
  // correct or clear, rather than refuse the whole form at the end.
  const [unknownReferral, setUnknownReferral] = useState(false);
  const { setServerErrors } = form;

  useEffect(() => {
    if (!referral) return;
    let current = true;
    api(`/api/referral-codes/${encodeURIComponent(referral)}`).catch((error) => {
      if (!current || !(error instanceof ApiError && error.status === 404)) return;
      setUnknownReferral(true);
      setServerErrors((errors) => ({ ...errors, referredBy: R.referredBy.unknown }));
    });
    return () => {
      current = false;
    };
  }, [referral, setServerErrors]);

  useEffect(() => {
    if (!duplicate) return;
    const timer = setTimeout(() => setDuplicate(false), DUPLICATE_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [duplicate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) {
      setProblem(msg(R.invalid));
      return;
    }
    setSubmitting(true);
    try {
      const { referredBy, ...rest } = form.values;
      await api('/api/auth/users/register', {
        method: 'POST',
        body: {
          ...rest,
          userName: rest.userName.trim(),
          email: rest.email.trim(),
          mobileNumber: rest.mobileNumber.trim(),
          address: rest.address.trim(),
          ...(referredBy.trim() && { referredBy: referredBy.trim() }),
        },
      });
      navigate('/sign-in?registered=1');
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || /already exists/i.test(error.message))) {
        setDuplicate(true);
        form.setServerErrors(serverFieldErrors(error.errors, FIELDS));
      } else if (error instanceof ApiError && error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.errors, FIELDS));
        setProblem(msg(error.message));
      } else {
        setProblem(
          error instanceof ApiError && error.status > 0 && error.status < 500
            ? msg(error.message)
            : t('register.failed'),
        );
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="form-page">
      <h1>{t('register.title')}</h1>
      <form onSubmit={submit} noValidate>
        <Field
          id="register-userName"
          label={t('register.userName')}
          required
          autoComplete="name"
          {...form.bind('userName')}
          error={form.shownError('userName')}
        />
        <Field
          id="register-email"
          type="email"
          label={t('register.email')}
          required
          autoComplete="email"
          {...form.bind('email')}
          error={form.shownError('email')}
        />
        <Field
          id="register-password"
          type="password"
          label={t('register.password')}
          required
          autoComplete="new-password"
          hint={t('register.passwordHint')}
          {...form.bind('password')}
          error={form.shownError('password')}
        />
        <Field
          id="register-mobileNumber"
          type="tel"
          inputMode="numeric"
          label={t('register.mobileNumber')}
          required
          autoComplete="tel-national"
          hint={t('form.mobileHint')}
          {...form.bind('mobileNumber')}
          error={form.shownError('mobileNumber')}
        />
        <Field
          id="register-address"
          label={t('register.address')}
          required
          autoComplete="street-address"
          {...form.bind('address')}
          error={form.shownError('address')}
        />
        <Field
          id="register-referredBy"
          label={t('register.referredBy')}
          autoCapitalize="characters"
          spellCheck={false}
          hint={
            unknownReferral
              ? t('register.referredByUnknown')
              : referral
                ? t('register.referredByLink')
                : t('register.referredByHint')
          }
          {...form.bind('referredBy')}
          error={form.shownError('referredBy')}
        />
        <button type="submit" className="primary" disabled={submitting}>
          {submitting ? t('register.submitting') : t('register.submit')}
        </button>
        <div role="alert" className="form-status">
          {duplicate && <p className="error">{msg(R.duplicate)}</p>}
          {problem && <p className="error">{problem}</p>}
        </div>
      </form>
      <p>
        <Link href="/sign-in">{t('register.haveAccount')}</Link>
      </p>
    </div>
  );
}
