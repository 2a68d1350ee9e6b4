import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api } from '../api';
import { ACCOUNT_DELETION } from '../forms/rules';
import { useI18n } from '../i18n';

/** Where the account's deletion stands, as `GET /api/me/account-deletion` answers. */
export interface DeletionStatus {
  state: 'none' | 'awaiting_confirmation' | 'scheduled';
  confirmBefore?: string;
  eraseAfter?: string;
}

/** The account's deletion status, asked once; `undefined` while asking. */
export function useDeletionStatus() {
  const [status, setStatus] = useState<DeletionStatus>();
  useEffect(() => {
    api<DeletionStatus>('/api/me/account-deletion')
      .then(setStatus)
      .catch(() => setStatus({ state: 'none' }));
  }, []);
  return [status, setStatus] as const;
}

/**
 * Shown at the top of the account's security page while a deletion is scheduled (signing in in
 * the grace period leads here): the day it happens and a button that cancels it.
 */
export function ScheduledDeletion({
  status,
  onCancelled,
}: {
  status: DeletionStatus;
  onCancelled: (status: DeletionStatus) => void;
}) {
  const { t, msg, date } = useI18n();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function cancel() {
    setBusy(true);
    setProblem(undefined);
    try {
      await api('/api/me/account-deletion/cancel', { method: 'POST' });
      onCancelled({ state: 'none' });
    } catch (error) {
      setProblem(error instanceof ApiError && error.status > 0 ? msg(error.message) : t('deletion.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="deletion-scheduled" aria-labelledby="deletion-scheduled-title">
      <h2 id="deletion-scheduled-title">{t('deletion.scheduledTitle')}</h2>
      <p>{t('deletion.scheduledOn', { date: date(status.eraseAfter ?? '') })}</p>
      <button type="button" className="primary" onClick={cancel} disabled={busy}>
        {t('deletion.cancel')}
      </button>
      <div role="alert" className="form-status">
        {problem && <p className="error">{problem}</p>}
      </div>
    </section>
  );
}

/**
 * Asking to delete the account: what goes and what stays, the explicit giving up of unpaid
 * cashback, and the request, which the API refuses with what to finish first or answers by mail.
 */
export function DeleteAccount({
  status,
  onChange,
}: {
  status: DeletionStatus;
  onChange: (status: DeletionStatus) => void;
}) {
  const { t, msg } = useI18n();
  const [giveUp, setGiveUp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      onChange(
        await api<DeletionStatus>('/api/me/account-deletion', {
          method: 'POST',
          body: { giveUpUnpaidMoney: giveUp },
        }),
      );
    } catch (error) {
      setProblem(error instanceof ApiError && error.status > 0 ? msg(error.message) : t('deletion.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="account-deletion" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">{t('deletion.title')}</h2>
      {status.state === 'awaiting_confirmation' ? (
        <p role="status" className="success">
          {msg(ACCOUNT_DELETION.requested)}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>{t('deletion.intro')}</p>
          <p>{t('deletion.kept')}</p>
          <div className="checkbox-field">
            <input
              id="deletion-giveUpUnpaidMoney"
              type="checkbox"
              checked={giveUp}
              onChange={(event) => setGiveUp(event.target.checked)}
            />
            <label htmlFor="deletion-giveUpUnpaidMoney">{t('deletion.giveUp')}</label>
          </div>
          <button type="submit" className="danger" disabled={busy}>
            {busy ? t('deletion.asking') : t('deletion.ask')}
          </button>
          <div role="alert" className="form-status">
            {problem && <p className="error">{problem}</p>}
          </div>
        </form>
      )}
    </section>
  );
}
