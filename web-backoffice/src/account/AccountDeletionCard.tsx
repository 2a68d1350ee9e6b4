import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { ACCOUNT_DELETION } from '@offers/api/rules';
import { useEffect, useState } from 'react';
import { type HttpError, useLocale, useTranslate } from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

interface DeletionStatus {
  state: 'none' | 'awaiting_confirmation' | 'scheduled';
  eraseAfter?: string;
}

/** The API's refusals, by their English text, to the catalogue's keys. */
const REFUSALS: Record<string, string> = {
  [ACCOUNT_DELETION.refused.merchantUnpaidEarnings]: 'offers.deletion.unpaidEarnings',
  [ACCOUNT_DELETION.refused.alreadyAsked]: 'offers.deletion.alreadyAsked',
};

/**
 * Deleting the merchant's account from its profile: asked here, confirmed by the mailed link,
 * erased after the grace period; refused while cashback on its store is unpaid. While a deletion
 * is scheduled the card says when and offers to keep the account.
 */
export const AccountDeletionCard = () => {
  const translate = useTranslate();
  const locale = useLocale();
  const [status, setStatus] = useState<DeletionStatus>();
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    httpClient(`${API_URL}/merchant/account-deletion`)
      .then(({ json }) => setStatus(json))
      .catch(() => setStatus({ state: 'none' }));
  }, []);

  const act = async (path: string, done: (json: DeletionStatus) => string) => {
    setBusy(true);
    setNotice(undefined);
    try {
      const { json } = await httpClient(`${API_URL}/merchant/account-deletion${path}`, {
        method: 'POST',
        body: '{}',
      });
      setStatus(json);
      setNotice({ severity: 'success', text: done(json) });
    } catch (error) {
      const key = REFUSALS[(error as HttpError).message];
      setNotice({ severity: 'error', text: translate(key ?? 'offers.deletion.failed') });
    } finally {
      setBusy(false);
    }
  };

  if (!status) return null;
  const date = status.eraseAfter
    ? new Intl.DateTimeFormat(`${locale}-IN`, { dateStyle: 'long', timeZone: 'Asia/Kolkata' }).format(
        new Date(status.eraseAfter),
      )
    : '';
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="account-deletion-title">
      <CardContent>
        <Typography id="account-deletion-title" component="h2" variant="h6" gutterBottom>
          {translate('offers.deletion.title')}
        </Typography>
        {status.state === 'scheduled' ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('offers.deletion.scheduled', { date })}
          </Alert>
        ) : status.state === 'awaiting_confirmation' ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('offers.deletion.requested')}
          </Alert>
        ) : (
          <Typography sx={{ mb: 2 }}>{translate('offers.deletion.intro')}</Typography>
        )}
        <Box role="status">
          {notice && (
            <Alert severity={notice.severity} sx={{ mb: 2 }}>
              {notice.text}
            </Alert>
          )}
        </Box>
        {status.state === 'scheduled' && (
          <Button
            variant="contained"
            disabled={busy}
            onClick={() => act('/cancel', () => translate('offers.deletion.kept'))}
          >
            {translate('offers.deletion.keep')}
          </Button>
        )}
        {status.state === 'none' && (
          <Button
            variant="outlined"
            color="error"
            disabled={busy}
            onClick={() => act('', () => translate('offers.deletion.requested'))}
          >
            {translate('offers.deletion.ask')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
};
