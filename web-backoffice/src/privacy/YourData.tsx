import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Card, CardContent, Link, Typography } from '@mui/material';
import type { DataFact, PersonDataSummary } from '@offers/api/contracts';
import { formatRupees, rupeesToPaise } from '@offers/api/rules';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useIndianLocale } from '../common/locale';
import { PUBLIC_SITE } from '../common/publicSite';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', hi: 'हिन्दी', te: 'తెలుగు' };

/**
 * "Your data" for a merchant: what the site holds of the account, section by section, with whom
 * some of it was shared, and the whole as a JSON download. Corrections are made in the profile
 * form above it.
 */
export const YourData = () => {
  const translate = useTranslate();
  const locale = useIndianLocale();
  const [summary, setSummary] = useState<PersonDataSummary>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    httpClient(`${API_URL}/merchant/data`)
      .then(({ json }) => setSummary(json))
      .catch(() => setFailed(true));
  }, []);

  const value = (fact: DataFact) => {
    if (fact.format === 'date') return new Date(String(fact.value)).toLocaleDateString(locale);
    if (fact.format === 'money') return formatRupees(rupeesToPaise(String(fact.value)));
    if (fact.format === 'language') return LANGUAGE_NAMES[String(fact.value)] ?? String(fact.value);
    return String(fact.value);
  };

  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="your-data-title">
      <CardContent>
        <Typography component="h2" variant="h6" id="your-data-title" gutterBottom>
          {translate('offers.yourData.title')}
        </Typography>
        <Typography gutterBottom>{translate('offers.yourData.intro')}</Typography>
        {/* A plain link: the browser saves the API's attachment with the session's cookie. */}
        <Button
          variant="contained"
          href={`${API_URL}/merchant/data-export`}
          download
          startIcon={<DownloadIcon />}
        >
          {translate('offers.yourData.download')}
        </Button>
        {failed && (
          <Typography color="error" role="alert" sx={{ mt: 2 }}>
            {translate('offers.yourData.failed')}
          </Typography>
        )}
        {summary?.sections.map((section) => (
          <Box
            key={section.section}
            component="section"
            sx={{ mt: 2 }}
            aria-labelledby={`data-${section.section}`}
          >
            <Typography component="h3" variant="subtitle1" fontWeight="bold" id={`data-${section.section}`}>
              {translate(`offers.yourData.sections.${section.section}`, { _: section.section })} (
              {translate('offers.yourData.records', { smart_count: section.count })})
            </Typography>
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: 'max-content 1fr',
                columnGap: 2,
                rowGap: 0.5,
                m: 0,
              }}
            >
              {section.facts
                .filter((fact) => section.count > 0 && fact.value !== null && fact.value !== '')
                .map((fact) => (
                  <Box key={fact.name} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" fontWeight="bold">
                      {translate(`offers.yourData.facts.${fact.name}`, { _: fact.name })}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {value(fact)}
                    </Typography>
                  </Box>
                ))}
            </Box>
            {section.sharedWith.map((shared) => (
              <Typography key={`${shared.recipient}:${shared.name}`} variant="body2" color="text.secondary">
                {translate(`offers.yourData.sharedWith.${shared.recipient}`, { name: shared.name ?? '' })}
              </Typography>
            ))}
          </Box>
        ))}
        <Typography sx={{ mt: 2 }}>
          {translate('offers.yourData.grievance')}{' '}
          <Link href={`${PUBLIC_SITE}/grievance`}>{translate('offers.yourData.grievanceLink')}</Link>
        </Typography>
      </CardContent>
    </Card>
  );
};
