import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import { type ResetField, validateReset } from '../forms/password';
import { PASSWORD_RESET, PASSWORD_RULES_TEXT } from '../forms/rules';
import { serverFieldErrors } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('account', lang);

/** The page a reset mail links to (`/reset-password?token=...`): one new password, then sign in. */
export default function ResetPasswordPage() {
  useTexts('account');
  const { t, msg } = useI18n();
  usePageTitle(t('password.resetTitle'));
  const search = useSearch();
  const token = useMemo(() => new URLSearchParams(search).get('token') ?? '', [search]);
  const form = useForm<ResetField>({ password: '' }, useCallback(validateReset, []));
  const [state, setState] = useState<'idle' | 'saving' | 'done'>('idle');
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) return;
    setState('saving');
    try {
      await api('/api/auth/password/reset', {
        method: 'POST',
        body: { token, password: form.values.password },
      });
      setState('done');
    } catch (error) {
      setState('idle');
      if (error instanceof ApiError && error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.errors, ['password']));
      }
      setProblem(error instanceof ApiError && error.status > 0 ? msg(error.message) : t('password.failed'));
    }
  }

  if (state === 'done') {
    return (
      <div className="form-page">
        <h1>{t('password.resetTitle')}</h1>
        <p className="success" role="status">
          {msg(PASSWORD_RESET.done)}
        </p>
        <p>
          <Link href="/sign-in">{t('password.backToSignIn')}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="form-page">
      <h1>{t('password.resetTitle')}</h1>
      {token ? (
        <form onSubmit={submit} noValidate>
          <Field
            id="reset-password"
            type="password"
            label={t('password.newPassword')}
            hint={msg(PASSWORD_RULES_TEXT)}
            required
            autoComplete="new-password"
            {...form.bind('password')}
            error={form.shownError('password')}
          />
          <button type="submit" className="primary" disabled={state === 'saving'}>
            {state === 'saving' ? t('password.saving') : t('password.reset')}
          </button>
          <div role="alert" className="form-status">
            {problem && <p className="error">{problem}</p>}
          </div>
        </form>
      ) : (
        <p className="error" role="alert">
          {msg(PASSWORD_RESET.invalid)}
        </p>
      )}
      <p>
        <Link href="/forgot-password">{t('password.askAgain')}</Link>
      </p>
    </div>
  );
}
