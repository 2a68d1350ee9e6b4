import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import WarningIcon from '@mui/icons-material/WarningAmber';
import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import type { MerchantProfile as Profile } from '@offers/api/contracts';
import { MERCHANT_REGISTRATION as M, MOBILE_NUMBER } from '@offers/api/rules';
import { useEffect, useState } from 'react';
import {
  Form,
  type HttpError,
  Loading,
  minLength,
  regex,
  required,
  SaveButton,
  TextInput,
  Title,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useSavedNotice } from '../common/savedNotice';
import { YourData } from '../privacy/YourData';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import { AccountDeletionCard } from './AccountDeletionCard';

const READ_ONLY: Array<keyof Profile> = [
  'userName',
  'brandName',
  'email',
  'merchantUrl',
  'industry',
  'category',
  'referralCode',
];

/** The merchant's own account: name, mobile and address change here; the rest is shown, then "Your data". */
export const ProfilePage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const savedNotice = useSavedNotice();
  const [profile, setProfile] = useState<Profile>();

  useEffect(() => {
    httpClient(`${API_URL}/merchant/profile`).then(({ json }) => setProfile(json));
  }, []);

  const save = async (values: Record<string, unknown>) => {
    try {
      const { json } = await httpClient(`${API_URL}/merchant/profile`, {
        method: 'PUT',
        body: JSON.stringify({
          merchantName: values.merchantName,
          mobile: values.mobile,
          address: values.address,
        }),
      });
      setProfile(json);
      savedNotice('profile', json);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return (error as HttpError).body?.errors;
    }
  };

  if (!profile) return <Loading />;
  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="offers.profile.title" />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('offers.profile.title')}
      </Typography>
      {profile.isEmailConfirmed ? (
        <Alert icon={<CheckCircleIcon />} severity="success" sx={{ mb: 2 }}>
          {translate('offers.profile.emailConfirmed')}
        </Alert>
      ) : (
        <Alert icon={<WarningIcon />} severity="warning" sx={{ mb: 2 }}>
          {translate('offers.profile.emailNotConfirmed')}
        </Alert>
      )}
      <Card>
        <CardContent>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, mb: 2 }}
          >
            {READ_ONLY.map((name) => (
              <Box key={name} sx={{ display: 'contents' }}>
                <Typography component="dt" fontWeight="bold">
                  {translate(`offers.profile.fields.${name}`, { _: name })}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {String(profile[name] ?? '')}
                </Typography>
              </Box>
            ))}
          </Box>
          <Form record={profile} onSubmit={save}>
            <TextInput
              source="merchantName"
              label="offers.profile.fields.merchantName"
              validate={[
                required('offers.profile.merchantNameRequired'),
                minLength(M.merchantName.minLength, 'offers.profile.merchantNameShort'),
              ]}
              fullWidth
            />
            <TextInput
              source="mobile"
              label="offers.profile.fields.mobile"
              validate={[
                required('offers.profile.mobileRequired'),
                regex(MOBILE_NUMBER, 'offers.profile.mobileInvalid'),
              ]}
            />
            <TextInput
              source="address"
              label="offers.profile.fields.address"
              validate={required('offers.profile.addressRequired')}
              multiline
              fullWidth
            />
            <SaveButton />
          </Form>
        </CardContent>
      </Card>
      <YourData />
      <AccountDeletionCard />
    </Box>
  );
};
