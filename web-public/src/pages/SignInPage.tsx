import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../api';
import { useAuth } from '../auth';
import { Field, useForm } from '../forms/Field';
import { SIGN_IN_THROTTLE, USER_REGISTRATION, USER_SIGN_IN } from '../forms/rules';
import { type SignInField, validateSignIn } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

/** Only an address on this site may be returned to after signing in. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/account';
}

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('account', lang);

export default function SignInPage() {
  useTexts('account');
  const { t, msg } = useI18n();
  usePageTitle(t('signIn.title'));
  const { refresh } = useAuth();
  const [, navigate] = useLocation();
  const search = useSearch();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const form = useForm<SignInField>({ emailOrMobile: '', password: '' }, useCallback(validateSignIn, []));
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) return;
    setSubmitting(true);
    try {
      const answer = await api<{ scheduledDeletion?: { eraseAfter: string } }>('/api/auth/users/login', {
        method: 'POST',
        body: { emailOrMobile: form.values.emailOrMobile.trim(), password: form.values.password },
      });
      await refresh();
      // An account scheduled for deletion: the page that says when, and offers to cancel.
      navigate(answer.scheduledDeletion ? '/account/security' : safeNext(params.get('next')), {
        replace: true,
      });
    } catch (error) {
      const throttled = error instanceof ApiError && error.status === 429;
      setProblem(msg(throttled ? SIGN_IN_THROTTLE.message : USER_SIGN_IN.failed));
      setSubmitting(false);
    }
  }

  return (
    <div className="form-page">
      <h1>{t('signIn.title')}</h1>
      {params.get('registered') && (
        <p className="success" role="status">
          {msg(USER_REGISTRATION.success)}. {t('signIn.nowSignIn')}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        {/* One field for either: a phone keyboard with @ and digits, and the browser's saved login. */}
        <Field
          id="signin-emailOrMobile"
          type="text"
          inputMode="email"
          label={t('signIn.emailOrMobile')}
          required
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...form.bind('emailOrMobile')}
          error={form.shownError('emailOrMobile')}
        />
        <Field
          id="signin-password"
          type="password"
          label={t('signIn.password')}
          required
          autoComplete="current-password"
          {...form.bind('password')}
          error={form.shownError('password')}
        />
        <button type="submit" className="primary" disabled={!form.valid || submitting}>
          {submitting ? t('signIn.signingIn') : t('signIn.submit')}
        </button>
        <div role="alert" className="form-status">
          {problem && <p className="error">{problem}</p>}
        </div>
      </form>
      <p>
        <Link href="/forgot-password">{t('password.forgotLink')}</Link>
      </p>
      <p>
        <Link href="/register">{t('signIn.noAccount')}</Link>
      </p>
    </div>
  );
}
