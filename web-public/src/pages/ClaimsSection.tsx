import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError, api } from '../api';
import { Field } from '../forms/Field';
import { CLAIM_MESSAGES, CLAIM_RULES, type ClaimableClick, type ShopperClaim } from '../forms/rules';
import { useI18n } from '../i18n';

type ClaimField = 'clickId' | 'orderId' | 'orderDate' | 'amount' | 'invoice';

/** The form's own checks, with the API's messages (it checks again, and has the last word). */
function problems(form: { clickId: string; orderId: string; orderDate: string; amount: string }) {
  const found: Partial<Record<ClaimField, string>> = {};
  if (!form.clickId) found.clickId = CLAIM_MESSAGES.clickId;
  if (!form.orderId.trim()) found.orderId = CLAIM_MESSAGES.orderId.required;
  else if (!CLAIM_RULES.orderId.test(form.orderId.trim())) found.orderId = CLAIM_MESSAGES.orderId.invalid;
  if (!form.orderDate) found.orderDate = CLAIM_MESSAGES.orderDate.required;
  else if (!CLAIM_RULES.orderDate.test(form.orderDate)) found.orderDate = CLAIM_MESSAGES.orderDate.invalid;
  if (!form.amount.trim()) found.amount = CLAIM_MESSAGES.amount.required;
  else if (!CLAIM_RULES.amount.test(form.amount.trim())) found.amount = CLAIM_MESSAGES.amount.invalid;
  else if (Number(form.amount) <= 0) found.amount = CLAIM_MESSAGES.amount.zero;
  return found;
}

function cookie(name: string): string | undefined {
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined;
}

/** Sends the claim as a multipart form (the invoice is a file), with the session's XSRF token. */
async function sendClaim(form: FormData): Promise<ShopperClaim> {
  const xsrf = cookie('XSRF-TOKEN');
  const response = await fetch('/api/me/missing-cashback-claims', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(xsrf ? { 'x-xsrf-token': xsrf } : {}) },
    body: form,
  }).catch(() => {
    throw new ApiError(0, 'Network error');
  });
  const body = (await response.json().catch(() => ({}))) as {
    message?: string;
    errors?: Record<string, string[]>;
  };
  if (!response.ok)
    throw new ApiError(response.status, body.message ?? response.statusText, body.errors ?? {});
  return body as unknown as ShopperClaim;
}

/**
 * Missing cashback: the shopper's click-outs whose purchase no store reported, a claim for one
 * (order id, date, amount and an invoice image), and every claim with its steps: filed, then
 * approved with its cashback or rejected with the reason, or the day an answer is due.
 */
export function ClaimsSection() {
  const { t, msg, money, date } = useI18n();
  const [claims, setClaims] = useState<ShopperClaim[]>();
  const [clicks, setClicks] = useState<ClaimableClick[]>([]);
  const [failed, setFailed] = useState(false);
  const [form, setForm] = useState({ clickId: '', orderId: '', orderDate: '', amount: '' });
  const [invoice, setInvoice] = useState<File>();
  // A file input cannot be emptied by its value: a new one replaces it once a claim is filed.
  const [invoiceInput, setInvoiceInput] = useState(0);
  const [errors, setErrors] = useState<Partial<Record<ClaimField, string>>>({});
  const [notice, setNotice] = useState<{ text: string; failed?: boolean }>();
  const [sending, setSending] = useState(false);

  const load = useCallback(async () => {
    try {
      const [loadedClaims, loadedClicks] = await Promise.all([
        api<ShopperClaim[]>('/api/me/missing-cashback-claims'),
        api<ClaimableClick[]>('/api/me/missing-cashback-claims/clicks'),
      ]);
      setClaims(loadedClaims);
      setClicks(loadedClicks);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = problems(form);
    if (invoice && invoice.size > CLAIM_RULES.invoiceMaxMegabytes * 1024 * 1024) {
      found.invoice = CLAIM_MESSAGES.invoiceTooLarge;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = new FormData();
    for (const [name, value] of Object.entries(form)) body.append(name, value.trim());
    if (invoice) body.append('invoice', invoice, invoice.name);
    setSending(true);
    setNotice(undefined);
    try {
      await sendClaim(body);
      setForm({ clickId: '', orderId: '', orderDate: '', amount: '' });
      setInvoice(undefined);
      setInvoiceInput((count) => count + 1);
      setNotice({ text: t('claims.filed') });
      await load();
    } catch (error) {
      const apiError = error as ApiError;
      const fieldErrors = Object.fromEntries(
        Object.entries(apiError.errors ?? {}).map(([field, messages]) => [field, messages[0]]),
      ) as Partial<Record<ClaimField, string>>;
      setErrors(fieldErrors);
      // A field's message shows beside it; the alert is for what no field explains.
      setNotice(
        Object.keys(fieldErrors).length > 0 ? undefined : { text: msg(apiError.message), failed: true },
      );
    } finally {
      setSending(false);
    }
  };

  if (failed) return <p role="alert">{t('account.loadFailed')}</p>;
  if (!claims) return <p>{t('claims.loading')}</p>;
  const field = (name: Exclude<ClaimField, 'invoice' | 'clickId'>, type = 'text', extra: object = {}) => (
    <Field
      id={`claim-${name}`}
      label={t(`claims.${name}`)}
      required
      name={name}
      type={type}
      value={form[name]}
      onChange={(event) => setForm({ ...form, [name]: event.target.value })}
      error={errors[name]}
      {...extra}
    />
  );
  return (
    <section aria-labelledby="claims-title" className="claims-section">
      <h1 id="claims-title">{t('claims.title')}</h1>
      <p>{t('claims.intro', { days: CLAIM_RULES.minAgeDays })}</p>
      <h2>{t('claims.fileTitle')}</h2>
      {clicks.length === 0 ? (
        <p>{t('claims.noClicks')}</p>
      ) : (
        <form onSubmit={submit} noValidate className="claim-form">
          <div className="field">
            <label htmlFor="claim-clickId">
              {t('claims.clickId')}
              <span className="required" aria-hidden="true">
                {' '}
                *
              </span>
            </label>
            <select
              id="claim-clickId"
              name="clickId"
              value={form.clickId}
              aria-required
              aria-invalid={errors.clickId ? true : undefined}
              aria-describedby={errors.clickId ? 'claim-clickId-error' : undefined}
              onChange={(event) => setForm({ ...form, clickId: event.target.value })}
            >
              <option value="">{t('claims.chooseClick')}</option>
              {clicks.map((click) => (
                <option key={click.clickId} value={click.clickId}>
                  {t('claims.clickOption', {
                    store: click.storeName,
                    coupon: click.couponTitle,
                    date: date(click.clickedAt),
                    until: date(click.claimableUntil),
                  })}
                </option>
              ))}
            </select>
            {errors.clickId && (
              <p id="claim-clickId-error" className="error" aria-live="polite">
                {msg(errors.clickId)}
              </p>
            )}
          </div>
          {field('orderId', 'text', { autoComplete: 'off', maxLength: CLAIM_RULES.orderIdMaxLength })}
          {field('orderDate', 'date')}
          {field('amount', 'text', { inputMode: 'decimal' })}
          <div className="field">
            <label htmlFor="claim-invoice">{t('claims.invoice')}</label>
            <input
              key={invoiceInput}
              id="claim-invoice"
              name="invoice"
              type="file"
              accept={CLAIM_RULES.invoiceAccept}
              aria-invalid={errors.invoice ? true : undefined}
              aria-describedby={
                errors.invoice ? 'claim-invoice-hint claim-invoice-error' : 'claim-invoice-hint'
              }
              onChange={(event) => setInvoice(event.target.files?.[0])}
            />
            <p id="claim-invoice-hint" className="hint">
              {t('claims.invoiceHint', { mb: CLAIM_RULES.invoiceMaxMegabytes })}
            </p>
            {errors.invoice && (
              <p id="claim-invoice-error" className="error" aria-live="polite">
                {msg(errors.invoice)}
              </p>
            )}
          </div>
          <button type="submit" className="primary" disabled={sending}>
            {sending ? t('claims.sending') : t('claims.file')}
          </button>
        </form>
      )}
      {notice && (
        <p
          role={notice.failed ? 'alert' : 'status'}
          className={notice.failed ? 'error' : 'form-status success'}
        >
          {notice.text}
        </p>
      )}
      <h2>{t('claims.listTitle')}</h2>
      {claims.length === 0 ? (
        <p>{t('claims.none')}</p>
      ) : (
        <ul className="claim-list">
          {claims.map((claim) => (
            <li key={claim.id} className="claim-card">
              <h3>
                {claim.storeName} · {t('claims.order', { id: claim.orderId })}
              </h3>
              <p>
                {t('claims.amountOn', {
                  amount: money(claim.amount),
                  date: date(`${claim.orderDate}T12:00:00+05:30`),
                })}
                {claim.kind !== 'claim' && ` · ${t(`claims.kind.${claim.kind}`)}`}
              </p>
              <ol className="claim-steps">
                <li>{t('claims.stepFiled', { date: date(claim.filedAt) })}</li>
                {claim.state === 'open' && (
                  <li>{t('claims.stepExpected', { date: date(claim.expectedBy) })}</li>
                )}
                {claim.state === 'approved' && (
                  <li>
                    {t('claims.stepApproved', {
                      date: date(claim.answeredAt!),
                      cashback: claim.cashback === null ? '' : money(claim.cashback),
                    })}
                  </li>
                )}
                {claim.state === 'rejected' && (
                  <li>
                    {t('claims.stepRejected', { date: date(claim.answeredAt!) })} <q>{claim.reason}</q>
                  </li>
                )}
              </ol>
              {claim.invoiceUrl && (
                <a href={claim.invoiceUrl} target="_blank" rel="noopener">
                  {t('claims.invoiceLink')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
