import { useI18n, usePageTitle } from '../i18n';

type Page = 'faq' | 'terms' | 'about' | 'privacy' | 'careers';

/** The static pages; their texts are in the locale files (`pages.<page>`). */
export default function InfoPage({ page }: { page: Page }) {
  const { t } = useI18n();
  usePageTitle(t(`pages.${page}.title`));
  if (page === 'faq') {
    const questions = ['approval', 'slots', 'expiry', 'languages', 'reveal', 'cashback'];
    return (
      <article className="info-page">
        <h1>{t('pages.faq.title')}</h1>
        <dl className="faq">
          {questions.map((key) => (
            <div key={key}>
              <dt>{t(`pages.faq.${key}.q`)}</dt>
              <dd>{t(`pages.faq.${key}.a`)}</dd>
            </div>
          ))}
        </dl>
      </article>
    );
  }
  const paragraphs = ['p1', 'p2', 'p3'];
  return (
    <article className="info-page">
      <h1>{t(`pages.${page}.title`)}</h1>
      {paragraphs.map((key) => {
        const text = t(`pages.${page}.${key}`);
        return text && text !== `pages.${page}.${key}` ? <p key={key}>{text}</p> : null;
      })}
    </article>
  );
}
