import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, type DataFact, type DataSharedWith, type PersonDataSummary } from '../api';
import { LANGUAGES, useI18n } from '../i18n';

/**
 * "Your data": what the site holds of the shopper, section by section (each owner's description,
 * composed by the API), with whom some of it was shared, where to correct it, and a download of
 * the whole as JSON.
 */
export function YourDataSection() {
  const { t } = useI18n();
  const [summary, setSummary] = useState<PersonDataSummary>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    api<PersonDataSummary>('/api/me/data')
      .then(setSummary)
      .catch(() => setFailed(true));
  }, []);

  return (
    <section aria-labelledby="your-data-title" className="your-data">
      <h1 id="your-data-title">{t('account.data')}</h1>
      <p>{t('yourData.intro')}</p>
      <p>
        {/* A plain link: the browser saves the API's attachment with the session's cookie. */}
        <a className="button primary" href="/api/me/data-export" download>
          {t('yourData.download')}
        </a>
      </p>
      <p className="hint">{t('yourData.downloadHint')}</p>
      {failed ? (
        <p className="error" role="alert">
          {t('yourData.failed')}
        </p>
      ) : summary === undefined ? (
        <p className="status" role="status">
          {t('common.loading')}
        </p>
      ) : (
        summary.sections.map((section) => (
          <section key={section.section} className="data-section" aria-labelledby={`data-${section.section}`}>
            <h2 id={`data-${section.section}`}>
              {t(`yourData.sections.${section.section}`)}{' '}
              <span className="data-count">({t('yourData.records', { count: section.count })})</span>
            </h2>
            {section.count === 0 ? (
              <p>{t('yourData.none')}</p>
            ) : (
              <>
                <Facts facts={section.facts} />
                {section.sharedWith.length > 0 && <SharedWith shared={section.sharedWith} />}
              </>
            )}
            {section.correctAt === 'profile' && (
              <p>
                <Link href="/account">{t('yourData.correct')}</Link>
                {section.section === 'account' && <> · {t('yourData.emailFixed')}</>}
              </p>
            )}
          </section>
        ))
      )}
      <p className="data-grievance">
        {t('yourData.grievanceAsk')} <Link href="/grievance">{t('yourData.grievanceLink')}</Link>
      </p>
    </section>
  );
}

function Facts({ facts }: { facts: DataFact[] }) {
  const { t, date, money } = useI18n();
  const shown = facts.filter((fact) => fact.value !== null && fact.value !== '');
  if (shown.length === 0) return null;
  const value = (fact: DataFact) => {
    if (fact.format === 'date') return date(String(fact.value));
    if (fact.format === 'money') return money(String(fact.value));
    if (fact.format === 'language')
      return LANGUAGES.find((language) => language.code === fact.value)?.label ?? String(fact.value);
    if (fact.name === 'status') return t(`yourData.status.${fact.value}`);
    return String(fact.value);
  };
  return (
    <dl className="data-facts">
      {shown.map((fact) => (
        <div key={fact.name}>
          <dt>{t(`yourData.facts.${fact.name}`)}</dt>
          <dd>{value(fact)}</dd>
        </div>
      ))}
    </dl>
  );
}

function SharedWith({ shared }: { shared: DataSharedWith[] }) {
  const { t } = useI18n();
  return (
    <div className="data-shared">
      <h3>{t('yourData.sharedWith')}</h3>
      <ul>
        {shared.map((recipient) => (
          <li key={`${recipient.recipient}:${recipient.name}:${recipient.what}`}>
            {recipient.name
              ? t(`yourData.recipients.${recipient.recipient}`, { name: recipient.name })
              : t(
                  `yourData.recipients.${recipient.recipient}${recipient.recipient === 'mailProvider' ? '' : 'Unnamed'}`,
                )}
            : {t(`yourData.what.${recipient.what}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
