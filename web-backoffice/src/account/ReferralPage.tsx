import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { MOBILE_NUMBER } from '@offers/rules';
import { useEffect, useState } from 'react';
import { Loading, Title, useNotify, useTranslate } from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

interface Invitation {
  code: string;
  link: string;
  message: string;
  whatsappUrl: string;
}

/** The merchant's referral code and link, shared by WhatsApp to a friend's number (+91) or any chat. */
export const ReferralPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [invitation, setInvitation] = useState<Invitation>();
  const [mobile, setMobile] = useState('');
  const validMobile = MOBILE_NUMBER.test(mobile);

  useEffect(() => {
    const query = validMobile ? `?mobile=${mobile}` : '';
    httpClient(`${API_URL}/merchant/referral${query}`).then(({ json }) => setInvitation(json));
  }, [mobile, validMobile]);

  if (!invitation) return <Loading />;
  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="offers.referral.title" />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('offers.referral.title')}
      </Typography>
      <Card>
        <CardContent>
          <Typography>
            {translate('offers.referral.code')}: <strong>{invitation.code}</strong>
          </Typography>
          <Typography sx={{ wordBreak: 'break-all', my: 1 }}>
            {translate('offers.referral.link')}: <a href={invitation.link}>{invitation.link}</a>
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
              href={invitation.whatsappUrl}
              target="_blank"
              rel="noopener"
            >
              {translate('offers.referral.share')}
            </Button>
            <Button
              variant="outlined"
              onClick={() =>
                navigator.clipboard
                  .writeText(invitation.link)
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
