import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AuthProvider } from './auth';
import { I18nProvider, loadLanguage, storedLanguage } from './i18n';
import './styles.css';

const language = storedLanguage();
document.documentElement.lang = language;
// A remembered Hindi or Telugu is fetched before the first paint, so no English flashes by.
loadLanguage(language)
  .catch(() => undefined)
  .then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <I18nProvider initial={language}>
          <AuthProvider>
            <App />
          </AuthProvider>
        </I18nProvider>
      </StrictMode>,
    );
  });
