import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import {
  AGE_CONFIRMATION,
  CONSENT_PURPOSES,
  type ConsentPurpose,
  HOUSE_REFERRAL_CODE,
  MINIMUM_AGE,
  PRIVACY_NOTICE_VERSION,
  USER_REGISTRATION as R,
  SHOPPER_NOTICE_FIELDS,
} from '../forms/rules';
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
  // The age confirmation and the optional consents: unticked until the visitor ticks them.
  const [adult, setAdult] = useState(false);
  const [consents, setConsents] = useState<ReadonlySet<ConsentPurpose>>(new Set());
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [submittedOnce, setSubmittedOnce] = useState(false);
  const [duplicate, setDuplicate] = useState(false);
  // The link's code names nobody (mistyped, cut short): say so now, in a field the shopper can
  // correct or clear, rather than refuse the whole form at the end.
  const [unknownReferral, setUnknownReferral] = useState(false);
  const { setServerErrors } = form;
  // The server's own message (it refuses a registration without the box too), once the form was sent.
  const ageProblem = submittedOnce && !adult ? msg(AGE_CONFIRMATION.required) : undefined;

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
    setSubmittedOnce(true);
    setProblem(undefined);
    if (!form.valid || !adult) {
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
          ageConfirmed: adult,
          consents: CONSENT_PURPOSES.filter((purpose) => consents.has(purpose)),
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
      <PrivacyNotice />
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
          autoComplete="tel"
          hint={t('form.mobileHint')}
          {...form.bind('mobileNumber')}
          error={form.shownError('mobileNumber')}
        />
        <Field
          id="register-address"
          label={t('register.address')}
          required
          autoComplete="address-line1"
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
        <div className="field check">
          <label htmlFor="register-adult">
            <input
              id="register-adult"
              type="checkbox"
              checked={adult}
              onChange={(event) => setAdult(event.target.checked)}
              aria-required="true"
              aria-invalid={ageProblem ? true : undefined}
              aria-describedby={ageProblem ? 'register-adult-error' : undefined}
            />
            <span>
              {t('consents.adult', { age: MINIMUM_AGE })}
              <span className="required" aria-hidden="true">
                {' '}
                *
              </span>
            </span>
          </label>
          {ageProblem && (
            <p id="register-adult-error" className="error" aria-live="polite">
              {ageProblem}
            </p>
          )}
        </div>
        <fieldset className="consent-choices">
          <legend>{t('consents.legend')}</legend>
          <p className="hint">{t('consents.optionalIntro')}</p>
          {CONSENT_PURPOSES.map((purpose) => (
            <label key={purpose} htmlFor={`register-consent-${purpose}`} className="check">
              <input
                id={`register-consent-${purpose}`}
                type="checkbox"
                checked={consents.has(purpose)}
                onChange={(event) => {
                  const { checked } = event.target;
                  setConsents((current) => {
                    const next = new Set(current);
                    if (checked) next.add(purpose);
                    else next.delete(purpose);
                    return next;
                  });
                }}
              />
              <span>
                <strong>{t(`consents.${purpose}.name`)}</strong> {t(`consents.${purpose}.what`)}
              </span>
            </label>
          ))}
        </fieldset>
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

/**
 * The notice the law asks for before the form: each field it asks, what it is for, and the
 * notice's version, from the one list the API records consents against.
 */
function PrivacyNotice() {
  const { t } = useI18n();
  return (
    <section className="privacy-notice" aria-labelledby="privacy-notice-title">
      <h2 id="privacy-notice-title">{t('notice.title')}</h2>
      <p>{t('notice.intro')}</p>
      <dl>
        {SHOPPER_NOTICE_FIELDS.map(({ field, purpose, required }) => (
          <div key={field}>
            <dt>
              {t(`register.${field}`)}
              {!required && ` (${t('notice.optional')})`}
            </dt>
            <dd>{t(`notice.purposes.${purpose}`)}</dd>
          </div>
        ))}
      </dl>
      <p className="hint">
        {t('notice.more')} <Link href="/privacy">{t('consents.privacyLink')}</Link>.{' '}
        {t('notice.version', { version: PRIVACY_NOTICE_VERSION })}
      </p>
    </section>
  );
}
