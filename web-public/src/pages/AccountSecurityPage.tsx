import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError, api, type SessionSummary } from '../api';
import { useAuth } from '../auth';
import { Field, useForm } from '../forms/Field';
import { type ChangeField, validateChange } from '../forms/password';
import { ACCOUNT_DELETION, PASSWORD_CHANGE, PASSWORD_RULES_TEXT } from '../forms/rules';
import { serverFieldErrors } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';
import { DeleteAccount, ScheduledDeletion, useDeletionStatus } from './AccountDeletion';

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('account', lang);

/**
 * The signed-in user's password, sessions and account: change the password, see the sessions, sign
 * out everywhere, delete the account (or, while its deletion is scheduled, cancel it).
 */
export default function AccountSecurityPage() {
  useTexts('account');
  const { t, msg } = useI18n();
  usePageTitle(t('password.securityTitle'));
  const [deletion, setDeletion] = useDeletionStatus();
  const [kept, setKept] = useState(false);
  return (
    <div className="account-page">
      <nav aria-label={t('account.menu')} className="account-nav">
        <ul>
          <li>
            <Link href="/account">{t('account.profile')}</Link>
          </li>
          <li>
            <Link href="/account/security" aria-current="page">
              {t('password.securityTitle')}
            </Link>
          </li>
        </ul>
      </nav>
      <div className="account-content">
        <h1>{t('password.securityTitle')}</h1>
        {deletion?.state === 'scheduled' && (
          <ScheduledDeletion
            status={deletion}
            onCancelled={(status) => {
              setDeletion(status);
              setKept(true);
            }}
          />
        )}
        <div role="status" className="form-status">
          {kept && <p className="success">{msg(ACCOUNT_DELETION.cancelled)}</p>}
        </div>
        <ChangePassword />
        <Sessions />
        {deletion && deletion.state !== 'scheduled' && (
          <DeleteAccount status={deletion} onChange={setDeletion} />
        )}
      </div>
    </div>
  );
}

const CHANGE_FIELDS: ChangeField[] = ['currentPassword', 'newPassword'];

function ChangePassword() {
  const { t, msg } = useI18n();
  const form = useForm<ChangeField>(
    { currentPassword: '', newPassword: '' },
    useCallback(validateChange, []),
  );
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) return;
    setState('saving');
    try {
      await api('/api/me/password', { method: 'PUT', body: form.values });
      form.reset();
      setState('saved');
    } catch (error) {
      setState('idle');
      if (error instanceof ApiError && error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.errors, CHANGE_FIELDS));
      }
      setProblem(error instanceof ApiError && error.status > 0 ? msg(error.message) : t('password.failed'));
    }
  }

  return (
    <section aria-labelledby="change-password-title">
      <h2 id="change-password-title">{t('password.change')}</h2>
      <form onSubmit={submit} noValidate>
        <Field
          id="change-currentPassword"
          type="password"
          label={t('password.currentPassword')}
          required
          autoComplete="current-password"
          {...form.bind('currentPassword')}
          error={form.shownError('currentPassword')}
        />
        <Field
          id="change-newPassword"
          type="password"
          label={t('password.newPassword')}
          hint={msg(PASSWORD_RULES_TEXT)}
          required
          autoComplete="new-password"
          {...form.bind('newPassword')}
          error={form.shownError('newPassword')}
        />
        <button type="submit" className="primary" disabled={state === 'saving'}>
          {state === 'saving' ? t('password.saving') : t('password.change')}
        </button>
        <div role="status" className="form-status">
          {state === 'saved' && <p className="success">{msg(PASSWORD_CHANGE.changed)}</p>}
        </div>
        <div role="alert" className="form-status">
          {problem && <p className="error">{problem}</p>}
        </div>
      </form>
    </section>
  );
}

function Sessions() {
  const { t, date } = useI18n();
  const { refresh } = useAuth();
  const [, navigate] = useLocation();
  const [sessions, setSessions] = useState<SessionSummary[]>();
  const [failed, setFailed] = useState(false);
  const [ending, setEnding] = useState(false);

  useEffect(() => {
    api<SessionSummary[]>('/api/me/sessions')
      .then(setSessions)
      .catch(() => setFailed(true));
  }, []);

  async function signOutEverywhere() {
    setEnding(true);
    try {
      await api('/api/me/sessions', { method: 'DELETE' });
      await refresh();
      navigate('/sign-in', { replace: true });
    } catch {
      setEnding(false);
      setFailed(true);
    }
  }

  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('password.sessions')}</h2>
      {failed && (
        <p className="error" role="alert">
          {t('account.loadFailed')}
        </p>
      )}
      {sessions && (
        <ul className="sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              {session.apiClient
                ? t('password.apiClient')
                : (session.userAgent ?? t('password.unknownBrowser'))}
              {' — '}
              {t('password.lastUsed', { date: date(session.lastUsedAt) })}
              {session.current && <strong> ({t('password.thisDevice')})</strong>}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={signOutEverywhere} disabled={ending}>
        {t('password.signOutEverywhere')}
      </button>
    </section>
  );
}
