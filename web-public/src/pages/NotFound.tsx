import { Link } from 'wouter';
import { useI18n, usePageTitle } from '../i18n';

export default function NotFound() {
  const { t } = useI18n();
  usePageTitle(t('notFound.title'));
  return (
    <div className="info-page">
      <h1>{t('notFound.title')}</h1>
      <p>
        <Link href="/">{t('notFound.back')}</Link>
      </p>
    </div>
  );
}
