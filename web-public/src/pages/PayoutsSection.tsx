import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { ApiError, api, type Balance, type Payout, type PayoutsPage, type RequestedPayout } from '../api';
import { Field, useForm } from '../forms/Field';
import { PAYOUT_FIELDS, type PayoutField, payoutRequest, validatePayout } from '../forms/payout';
import { type PayoutMethod, rupeesToPaise } from '../forms/rules';
import { serverFieldErrors } from '../forms/validate';
import { useI18n } from '../i18n';

const EMPTY: Record<PayoutField, string> = {
  amount: '',
  upiId: '',
  accountNumber: '',
  ifsc: '',
  accountHolderName: '',
};

/**
 * The shopper's balance, the request for a payout of it to a UPI ID or a bank account, and the
 * payouts asked for so far with their states.
 */
export function PayoutsSection() {
  const { t, msg, money, date } = useI18n();
  const [balance, setBalance] = useState<Balance>();
  const [payouts, setPayouts] = useState<Payout[]>();
  const [failed, setFailed] = useState(false);
  const [method, setMethod] = useState<PayoutMethod>('upi');
  const [state, setState] = useState<'idle' | 'sending'>('idle');
  const [notice, setNotice] = useState<{ text: string; failed?: boolean }>();
  const methodName = useId();

  const load = useCallback(async () => {
    try {
      const [loadedBalance, loadedPayouts] = await Promise.all([
        api<Balance>('/api/me/balance'),
        api<PayoutsPage>('/api/me/payouts'),
      ]);
      setBalance(loadedBalance);
      setPayouts(loadedPayouts.payouts);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const minimumPaise = balance ? rupeesToPaise(balance.minimum) : 0;
  const availablePaise = balance ? rupeesToPaise(balance.available) : 0;
  const form = useForm<PayoutField>(
    EMPTY,
    useCallback(
      (values: Record<PayoutField, string>) =>
        validatePayout(values, method, { minimumPaise, availablePaise }),
      [method, minimumPaise, availablePaise],
    ),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setNotice(undefined);
    if (!form.valid) return;
    setState('sending');
    try {
      const payout = await api<RequestedPayout>('/api/me/payouts', {
        method: 'POST',
        body: payoutRequest(form.values, method),
      });
      form.reset();
      setNotice({ text: t('payouts.requested', { amount: money(payout.amount) }) });
      await load();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.errors, PAYOUT_FIELDS));
      }
      setNotice({
        text:
          error instanceof ApiError && error.status > 0 && error.status < 500
            ? msg(error.message)
            : t('payouts.failed'),
        failed: true,
      });
    } finally {
      setState('idle');
    }
  }

  if (failed)
    return (
      <p className="error" role="alert">
        {t('payouts.loadFailed')}
      </p>
    );
  if (!balance || !payouts)
    return (
      <p className="status" role="status">
        {t('common.loading')}
      </p>
    );

  const canWithdraw = availablePaise >= minimumPaise;
  return (
    <section aria-labelledby="payouts-title" className="payouts">
      <h2 id="payouts-title">{t('payouts.title')}</h2>
      <dl className="balance">
        <div className="balance-available">
          <dt>{t('payouts.available')}</dt>
          <dd data-testid="available-balance">{money(balance.available)}</dd>
        </div>
        <div>
          <dt>{t('payouts.minimum')}</dt>
          <dd>{money(balance.minimum)}</dd>
        </div>
        <div>
          <dt>{t('payouts.inProgress')}</dt>
          <dd>{money(balance.inProgress)}</dd>
        </div>
        <div>
          <dt>{t('payouts.paidOut')}</dt>
          <dd>{money(balance.paidOut)}</dd>
        </div>
      </dl>
      {/* Below the minimum there is nothing to ask for yet: the page says when there will be. */}
      {!canWithdraw && <p className="status">{t('payouts.notYet', { minimum: money(balance.minimum) })}</p>}
      <form onSubmit={submit} noValidate className="payout-form" hidden={!canWithdraw}>
        <Field
          id="payout-amount"
          label={t('payouts.amount')}
          required
          inputMode="decimal"
          autoComplete="off"
          hint={t('payouts.amountHint', {
            minimum: money(balance.minimum),
            available: money(balance.available),
          })}
          {...form.bind('amount')}
          error={form.shownError('amount')}
        />
        <fieldset className="payout-method">
          <legend>{t('payouts.method')}</legend>
          {(['upi', 'bank'] as const).map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={methodName}
                value={choice}
                checked={method === choice}
                onChange={() => setMethod(choice)}
              />
              {t(`payouts.methods.${choice}`)}
            </label>
          ))}
        </fieldset>
        {method === 'upi' ? (
          <Field
            id="payout-upiId"
            label={t('payouts.upiId')}
            required
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            hint={t('payouts.upiHint')}
            {...form.bind('upiId')}
            error={form.shownError('upiId')}
          />
        ) : (
          <>
            <Field
              id="payout-accountNumber"
              label={t('payouts.accountNumber')}
              required
              inputMode="numeric"
              autoComplete="off"
              {...form.bind('accountNumber')}
              error={form.shownError('accountNumber')}
            />
            <Field
              id="payout-ifsc"
              label={t('payouts.ifsc')}
              required
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              hint={t('payouts.ifscHint')}
              {...form.bind('ifsc')}
              error={form.shownError('ifsc')}
            />
            <Field
              id="payout-accountHolderName"
              label={t('payouts.accountHolderName')}
              autoComplete="name"
              {...form.bind('accountHolderName')}
              error={form.shownError('accountHolderName')}
            />
          </>
        )}
        <button type="submit" className="primary" disabled={state === 'sending'}>
          {state === 'sending' ? t('payouts.sending') : t('payouts.submit')}
        </button>
      </form>
      {/* Outside the form, which hides once the balance is below the minimum. */}
      <p
        role={notice?.failed ? 'alert' : 'status'}
        className={notice?.failed ? 'error' : 'form-status success'}
      >
        {notice?.text}
      </p>
      <h2 id="payout-history">{t('payouts.history')}</h2>
      {payouts.length === 0 ? (
        <p className="status">{t('payouts.none')}</p>
      ) : (
        <ul className="payout-list" aria-labelledby="payout-history">
          {payouts.map((payout) => (
            <li key={payout.id} className={`payout payout-${payout.state}`}>
              <div className="payout-head">
                <strong>{money(payout.amount)}</strong>
                <span className="payout-state">{t(`payouts.states.${payout.state}`)}</span>
              </div>
              <p>
                {t('payouts.requestedOn', { date: date(payout.requestedAt) })} ·{' '}
                {t(`payouts.methods.${payout.method}`)} {payout.destination}
              </p>
              {payout.bankReference && <p>{t('payouts.reference', { reference: payout.bankReference })}</p>}
              {payout.failureReason && (
                <p>
                  {t('payouts.reason', { reason: payout.failureReason })} {t('payouts.backInBalance')}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
