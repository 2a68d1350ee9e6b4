import { type FormEvent, useCallback, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import { type ForgotField, validateForgot } from '../forms/password';
import { PASSWORD_RESET } from '../forms/rules';
import { serverFieldErrors } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('account', lang);

/** Asks for a reset link by mail. The answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  useTexts('account');
  const { t, msg } = useI18n();
  usePageTitle(t('password.forgotTitle'));
  const form = useForm<ForgotField>({ email: '' }, useCallback(validateForgot, []));
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) return;
    setState('sending');
    try {
      await api('/api/auth/password/forgot', {
        method: 'POST',
        body: { email: form.values.email.trim(), role: 'user' },
      });
      setState('sent');
    } catch (error) {
      setState('idle');
      if (error instanceof ApiError && error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.errors, ['email']));
      }
      setProblem(error instanceof ApiError && error.status > 0 ? msg(error.message) : t('password.failed'));
    }
  }

  return (
    <div className="form-page">
      <h1>{t('password.forgotTitle')}</h1>
      {state === 'sent' ? (
        <p className="success" role="status">
          {msg(PASSWORD_RESET.accepted)}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>{t('password.forgotIntro')}</p>
          <Field
            id="forgot-email"
            type="email"
            label={t('password.email')}
            required
            autoComplete="email"
            {...form.bind('email')}
            error={form.shownError('email')}
          />
          <button type="submit" className="primary" disabled={state === 'sending'}>
            {state === 'sending' ? t('password.sending') : t('password.send')}
          </button>
          <div role="alert" className="form-status">
            {problem && <p className="error">{problem}</p>}
          </div>
        </form>
      )}
      <p>
        <Link href="/sign-in">{t('password.backToSignIn')}</Link>
      </p>
    </div>
  );
}
