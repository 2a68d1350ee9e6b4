import { Box, LinearProgress, Typography } from '@mui/material';
import { IMAGE_RULES } from '@offers/api/rules';
import { ImageField, ImageInput, required, useRecordContext, useTranslate } from 'react-admin';
import { useUploadPercent } from '../providers/uploads';

const ACCEPT = Object.fromEntries(IMAGE_RULES.accepted.map((type) => [type, []]));

/** The percentage of the upload in flight, announced to screen readers. */
export const UploadProgress = () => {
  const percent = useUploadPercent();
  const translate = useTranslate();
  if (percent === undefined) return null;
  const text = translate('offers.upload.uploading', { percent });
  return (
    <Box role="status" aria-live="polite" sx={{ my: 1, maxWidth: 400 }}>
      <LinearProgress variant="determinate" value={percent} aria-label={text} />
      <Typography variant="body2">{text}</Typography>
    </Box>
  );
};

/** The stored image of the record being edited. */
const CurrentImage = ({ source }: { source: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  // A path such as `images.small` reaches into the record.
  const url = source
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], record);
  if (!url) return null;
  return (
    <Box sx={{ mb: 1 }}>
      <Typography variant="caption" component="p">
        {translate('offers.upload.current')}
      </Typography>
      <img
        src={`${url}?w=320`}
        alt={translate('offers.upload.current')}
        style={{ maxWidth: 320, maxHeight: 200 }}
      />
    </Box>
  );
};

/**
 * An image picker with a preview of the chosen file, the current image when editing and the upload
 * progress; the file goes to the API as multipart under `source`.
 */
export const ImageUpload = ({
  source,
  currentSource = 'imageUrl',
  isRequired = false,
  requiredMessage = 'offers.upload.imageRequired',
}: {
  source: string;
  currentSource?: string;
  isRequired?: boolean;
  requiredMessage?: string;
}) => {
  const translate = useTranslate();
  const maxSize = IMAGE_RULES.defaultMaxMegabytes * 1024 * 1024;
  return (
    <Box sx={{ width: '100%' }}>
      <CurrentImage source={currentSource} />
      <ImageInput
        source={source}
        accept={ACCEPT}
        maxSize={maxSize}
        placeholder={<p>{translate('offers.upload.choose')}</p>}
        validate={isRequired ? required(requiredMessage) : undefined}
        inputProps={{ 'aria-label': translate('offers.upload.choose') }}
      >
        <ImageField source="src" title="title" />
      </ImageInput>
      <UploadProgress />
    </Box>
  );
};
