import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import {
  BooleanInput,
  Form,
  type HttpError,
  Loading,
  maxLength,
  required,
  SaveButton,
  TextInput,
  Title,
  useNotify,
  useTranslate,
} from 'react-admin';
import { PUBLIC_SITE } from '../common/publicSite';
import { useSavedNotice } from '../common/savedNotice';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import { hasFile, sendForm, toFormData } from '../providers/uploads';
import { ImageUpload } from '../uploads/ImageUpload';

const EDITABLE = ['storeName', 'storeAddress', 'tagline', 'aboutDescription', 'isActive'];
const IMAGES = [
  { source: 'merchantLogo', current: 'logoUrl', label: 'offers.store.logo' },
  { source: 'heroBannerImage', current: 'heroBannerUrl', label: 'offers.store.heroBanner' },
  { source: 'landingBanner', current: 'landingBannerUrl', label: 'offers.store.landingBanner' },
];

/** The merchant's store page: name, texts, logo and banners, and whether it is shown. */
export const StorePage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const savedNotice = useSavedNotice();
  const [store, setStore] = useState<Record<string, unknown>>();

  useEffect(() => {
    httpClient(`${API_URL}/merchant/store`).then(({ json }) => setStore(json));
  }, []);

  const save = async (values: Record<string, unknown>) => {
    const changes = Object.fromEntries(
      Object.entries(values).filter(
        ([name]) => EDITABLE.includes(name) || IMAGES.some((image) => image.source === name),
      ),
    );
    try {
      const { json } = hasFile(changes)
        ? await sendForm('PUT', `${API_URL}/merchant/store`, toFormData(changes))
        : await httpClient(`${API_URL}/merchant/store`, { method: 'PUT', body: JSON.stringify(changes) });
      setStore(json as Record<string, unknown>);
      savedNotice('store', json as Record<string, unknown>);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return (error as HttpError).body?.errors;
    }
  };

  if (!store) return <Loading />;
  return (
    <Box sx={{ p: 2, maxWidth: 960 }}>
      <Title title="offers.store.title" />
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography component="h1" variant="h5">
          {translate('offers.store.title')}
        </Typography>
        <Button
          href={`${PUBLIC_SITE}/store/${store.merchantId}`}
          target="_blank"
          rel="noopener"
          endIcon={<OpenInNewIcon />}
        >
          {translate('offers.store.open')}
        </Button>
      </Stack>
      <Card>
        <CardContent>
          <Form record={store} onSubmit={save} resource="store">
            <TextInput
              source="storeName"
              validate={[required('offers.store.nameRequired'), maxLength(100)]}
              fullWidth
            />
            <TextInput source="storeAddress" validate={maxLength(500)} fullWidth />
            <TextInput source="tagline" validate={maxLength(150)} fullWidth />
            <TextInput source="aboutDescription" multiline minRows={3} validate={maxLength(2000)} fullWidth />
            <BooleanInput source="isActive" />
            {IMAGES.map((image) => (
              <Box key={image.source} sx={{ mb: 2 }}>
                <Typography component="h2" variant="subtitle1">
                  {translate(image.label)}
                </Typography>
                <ImageUpload source={image.source} currentSource={image.current} />
              </Box>
            ))}
            <SaveButton />
          </Form>
        </CardContent>
      </Card>
    </Box>
  );
};
