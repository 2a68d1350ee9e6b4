import { type FormEvent, useCallback, useState } from 'react';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import { GRIEVANCE_CATEGORIES, GRIEVANCE_FORM } from '../forms/rules';
import { type GrievanceField, serverFieldErrors, validateGrievance } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

const FIELDS: GrievanceField[] = ['name', 'email', 'category', 'subject', 'message'];

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('forms', lang);

/**
 * A grievance about personal data, signed in or not: the API records it with its 90-day deadline
 * (and the account, when signed in) and mails its reference and due date; the page shows both.
 */
export default function GrievancePage() {
  useTexts('forms');
  const { t, msg, lang, date } = useI18n();
  usePageTitle(t('grievance.title'));
  const form = useForm<GrievanceField>(
    { name: '', email: '', category: '', subject: '', message: '' },
    useCallback(validateGrievance, []),
  );
  const [state, setState] = useState<'idle' | 'sending' | 'failed'>('idle');
  const [filed, setFiled] = useState<{ reference: string; dueAt: string }>();
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    setFiled(undefined);
    if (!form.valid) {
      setProblem(t('form.invalid'));
      return;
    }
    setState('sending');
    try {
      const { name, email, category, subject, message } = form.values;
      const answer = await api<{ reference: string; dueAt: string }>('/api/grievances', {
        method: 'POST',
        body: {
          name: name.trim(),
          email: email.trim(),
          category,
          subject: subject.trim(),
          message: message.trim(),
          language: lang,
        },
      });
      setFiled(answer);
      setState('idle');
      form.reset();
    } catch (error) {
      setState('failed');
      // The API's own words for what it refused (400 field errors, 429 too many grievances).
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        form.setServerErrors(serverFieldErrors(error.errors, FIELDS));
        setProblem(msg(error.message));
      } else setProblem(msg(GRIEVANCE_FORM.failed));
    }
  }

  const categoryError = form.shownError('category');
  const category = form.bind('category');
  return (
    <div className="form-page">
      <h1>{t('grievance.title')}</h1>
      <p>{t('grievance.intro', { days: GRIEVANCE_FORM.answerDueDays })}</p>
      <form onSubmit={submit} noValidate>
        <Field
          id="grievance-name"
          label={t('grievance.name')}
          required
          autoComplete="name"
          {...form.bind('name')}
          error={form.shownError('name')}
        />
        <Field
          id="grievance-email"
          type="email"
          label={t('grievance.email')}
          required
          autoComplete="email"
          hint={t('grievance.emailHint')}
          {...form.bind('email')}
          error={form.shownError('email')}
        />
        <div className="field">
          <label htmlFor="grievance-category">
            {t('grievance.category')}
            <span className="required" aria-hidden="true">
              {' '}
              *
            </span>
          </label>
          <select
            id="grievance-category"
            name={category.name}
            value={category.value}
            onChange={category.onChange as never}
            onBlur={category.onBlur}
            aria-required
            aria-invalid={categoryError ? true : undefined}
            aria-describedby={categoryError ? 'grievance-category-error' : undefined}
          >
            <option value="">{t('grievance.choose')}</option>
            {GRIEVANCE_CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {t(`grievance.about${name[0]!.toUpperCase()}${name.slice(1)}`)}
              </option>
            ))}
          </select>
          {categoryError && (
            <p id="grievance-category-error" className="error" aria-live="polite">
              {msg(categoryError)}
            </p>
          )}
        </div>
        <Field
          id="grievance-subject"
          label={t('grievance.subject')}
          required
          {...form.bind('subject')}
          error={form.shownError('subject')}
        />
        <Field
          id="grievance-message"
          label={t('grievance.message')}
          required
          multiline
          {...form.bind('message')}
          error={form.shownError('message')}
        />
        <button type="submit" className="primary" disabled={state === 'sending'}>
          {state === 'sending' ? t('grievance.sending') : t('grievance.send')}
        </button>
        <div role="status" className="form-status">
          {filed && (
            <p className="success">
              {t('grievance.filed', { reference: filed.reference, date: date(filed.dueAt) })}
            </p>
          )}
        </div>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </div>
  );
}
