import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { MOBILE_NUMBER, WHATSAPP_COUNTRY_CODE } from '@offers/api/rules';
import { useEffect, useState } from 'react';
import { Loading, Title, useNotify, useTranslate } from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import { merchantRegistrationLink } from '../register/RegisterPage';

/**
 * The merchant's referral code and a link to this back-office's merchant registration with the
 * code filled in, shared by WhatsApp to a friend's number (+91) or any chat. The link is made
 * here because only the browser knows the address the back-office is reached at.
 */
export const ReferralPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [code, setCode] = useState<string>();
  const [mobile, setMobile] = useState('');
  const validMobile = MOBILE_NUMBER.test(mobile);

  useEffect(() => {
    httpClient(`${API_URL}/merchant/referral`).then(({ json }) => setCode(json.code));
  }, []);

  if (!code) return <Loading />;
  const link = merchantRegistrationLink(code);
  const message = translate('offers.referral.message', { code, link });
  const chat = validMobile ? `${WHATSAPP_COUNTRY_CODE}${mobile}` : '';
  const whatsappUrl = `https://wa.me/${chat}?text=${encodeURIComponent(message)}`;
  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="offers.referral.title" />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('offers.referral.title')}
      </Typography>
      <Card>
        <CardContent>
          <Typography>
            {translate('offers.referral.code')}: <strong>{code}</strong>
          </Typography>
          <Typography sx={{ wordBreak: 'break-all', mt: 1 }}>
            {translate('offers.referral.link')}:{' '}
            <a href={link} target="_blank" rel="noopener">
              {link}
            </a>
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('offers.referral.linkHelp')}
          </Typography>
          <TextField
            label={translate('offers.referral.mobile')}
            value={mobile}
            onChange={(event) => setMobile(event.target.value.replace(/\D/g, '').slice(0, 10))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            error={mobile !== '' && !validMobile}
            helperText={mobile !== '' && !validMobile ? translate('offers.referral.mobileInvalid') : ' '}
            sx={{ my: 1 }}
          />
          <Stack direction="row" spacing={2}>
            <Button
              variant="contained"
              color="success"
              startIcon={<WhatsAppIcon />}
              href={whatsappUrl}
              target="_blank"
              rel="noopener"
            >
              {translate('offers.referral.share')}
            </Button>
            <Button
              variant="outlined"
              onClick={() =>
                navigator.clipboard
                  .writeText(link)
                  .then(() => notify('offers.referral.copied', { type: 'info' }))
              }
            >
              {translate('offers.referral.copy')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
};
