import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import type { PostbackSettings } from '@offers/api/contracts';
import { TRACKING, type TrackingSettings } from '@offers/api/rules';
import { useEffect, useState } from 'react';
import {
  Form,
  type HttpError,
  Loading,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  regex,
  required,
  SaveButton,
  TextInput,
  Title,
  useNotify,
  useTranslate,
} from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

/** What a click id looks like, for the example address (never a real click). */
const EXAMPLE_CLICK_ID = 'AZqJ1bXc9kQ2mR4tVw8yZa';

/** The merchant's website as a shopper arrives from a coupon, with the click id in its parameter. */
function arrivalExample(website: string, subIdParam: string): string {
  if (!URL.canParse(website)) return `?${subIdParam}=${EXAMPLE_CLICK_ID}`;
  const url = new URL(website);
  url.searchParams.set(subIdParam, EXAMPLE_CLICK_ID);
  return url.href;
}

/**
 * How the merchant's site learns which click brought a shopper (the sub-id parameter), how long
 * after a click a purchase still counts (the cookie window), and how to report purchases back
 * (the postback address, signature and secret).
 */
export const TrackingPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [settings, setSettings] = useState<TrackingSettings>();
  const [postback, setPostback] = useState<PostbackSettings>();
  const [website, setWebsite] = useState<string>();

  useEffect(() => {
    httpClient(`${API_URL}/merchant/tracking`).then(({ json }) => setSettings(json));
    httpClient(`${API_URL}/merchant/postback-secret`).then(({ json }) => setPostback(json));
    httpClient(`${API_URL}/merchant/profile`).then(({ json }) => setWebsite(json.merchantUrl ?? ''));
  }, []);

  const save = async (values: Record<string, unknown>) => {
    try {
      const { json } = await httpClient(`${API_URL}/merchant/tracking`, {
        method: 'PUT',
        body: JSON.stringify({ subIdParam: values.subIdParam, cookieWindowDays: values.cookieWindowDays }),
      });
      setSettings(json);
      notify('offers.tracking.saved', { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return (error as HttpError).body?.errors;
    }
  };

  if (!settings || !postback || website === undefined) return <Loading />;
  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="offers.tracking.title" />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('offers.tracking.title')}
      </Typography>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography component="h2" variant="h6" gutterBottom>
            {translate('offers.tracking.clicks')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('offers.tracking.clicksHelp')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2, wordBreak: 'break-all' }}>
            {translate('offers.tracking.arrival')}{' '}
            <code data-testid="arrival-example">{arrivalExample(website, settings.subIdParam)}</code>
          </Typography>
          <Form record={settings} onSubmit={save}>
            <TextInput
              source="subIdParam"
              label="offers.tracking.subIdParam"
              helperText="offers.tracking.subIdParamHelp"
              validate={[
                required('offers.tracking.subIdParamRequired'),
                maxLength(TRACKING.subIdParam.maxLength, 'offers.tracking.subIdParamInvalid'),
                regex(TRACKING.subIdParam.pattern, 'offers.tracking.subIdParamInvalid'),
              ]}
            />
            {/* No native min and max: the browser's own bubble would speak before the page's message. */}
            <NumberInput
              source="cookieWindowDays"
              label="offers.tracking.cookieWindowDays"
              helperText="offers.tracking.cookieWindowDaysHelp"
              validate={[
                required('offers.tracking.cookieWindowDaysRequired'),
                minValue(TRACKING.cookieWindowDays.min, 'offers.tracking.cookieWindowDaysInvalid'),
                maxValue(TRACKING.cookieWindowDays.max, 'offers.tracking.cookieWindowDaysInvalid'),
                (value: unknown) =>
                  Number.isInteger(value) ? undefined : 'offers.tracking.cookieWindowDaysInvalid',
              ]}
            />
            <SaveButton />
          </Form>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography component="h2" variant="h6" gutterBottom>
            {translate('offers.tracking.postback')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('offers.tracking.postbackHelp')}
          </Typography>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}
          >
            {(
              [
                ['postbackUrl', `POST ${postback.url}`],
                ['signatureHeader', `${postback.signatureHeader}: ${postback.signature}`],
                ['secret', postback.secret],
              ] as const
            ).map(([name, value]) => (
              <Box key={name} sx={{ display: 'contents' }}>
                <Typography component="dt" fontWeight="bold">
                  {translate(`offers.tracking.${name}`)}
                </Typography>
                <Typography component="dd" sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Button
            variant="outlined"
            sx={{ mt: 2 }}
            onClick={() =>
              navigator.clipboard
                .writeText(postback.secret)
                .then(() => notify('offers.tracking.secretCopied', { type: 'info' }))
            }
          >
            {translate('offers.tracking.copySecret')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
