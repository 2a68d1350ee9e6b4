import { type FormEvent, useCallback, useState } from 'react';
import { ApiError, api } from '../api';
import { Field, useForm } from '../forms/Field';
import { CONTACT_FORM, CONTACT_PAGE } from '../forms/rules';
import { type ContactField, serverFieldErrors, validateContact } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';

const FIELDS: ContactField[] = ['name', 'email', 'mobile', 'msg'];

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) => loadTexts('forms', lang);

export default function ContactPage() {
  useTexts('forms');
  const { t, msg } = useI18n();
  usePageTitle(t('contact.title'));
  const form = useForm<ContactField>(
    { name: '', email: '', mobile: '', msg: '' },
    useCallback(validateContact, []),
  );
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [problem, setProblem] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) {
      setProblem(t('form.invalid'));
      return;
    }
    setState('sending');
    try {
      const { name, email, mobile, msg: message } = form.values;
      await api('/api/contact', {
        method: 'POST',
        body: { name: name.trim(), email: email.trim(), mobile: mobile.trim(), msg: message.trim() },
      });
      setState('sent');
      form.reset();
    } catch (error) {
      setState('failed');
      // The API's own words for what it refused (400 field errors, 429 too many messages).
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        form.setServerErrors(serverFieldErrors(error.errors, FIELDS));
        setProblem(msg(error.message));
      } else setProblem(msg(CONTACT_PAGE.failed));
    }
  }

  return (
    <div className="form-page">
      <h1>{t('contact.title')}</h1>
      <p>{t('contact.intro')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          id="contact-name"
          label={t('contact.name')}
          required
          autoComplete="name"
          {...form.bind('name')}
          error={form.shownError('name')}
        />
        <Field
          id="contact-email"
          type="email"
          label={t('contact.email')}
          required
          autoComplete="email"
          {...form.bind('email')}
          error={form.shownError('email')}
        />
        <Field
          id="contact-mobile"
          type="tel"
          inputMode="numeric"
          label={t('contact.mobile')}
          autoComplete="tel"
          hint={t('form.mobileHint')}
          {...form.bind('mobile')}
          error={form.shownError('mobile')}
        />
        <Field
          id="contact-msg"
          label={t('contact.msg')}
          required
          multiline
          {...form.bind('msg')}
          error={form.shownError('msg')}
        />
        <button type="submit" className="primary" disabled={state === 'sending'}>
          {state === 'sending' ? t('contact.sending') : t('contact.send')}
        </button>
        <div role="status" className="form-status">
          {state === 'sent' && <p className="success">{msg(CONTACT_FORM.submitted)}</p>}
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
