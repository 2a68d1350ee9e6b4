import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

const COLORS = {
  pending: 'warning',
  live: 'success',
  rejected: 'error',
  succeeded: 'success',
  failed: 'error',
  'waiting-for-admin': 'warning',
} as const;

export const StatusField = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record?.status) return null;
  const status = String(record.status);
  return (
    <Chip
      size="small"
      variant="outlined"
      // Coloured border, dark text: the palette's warning and success texts fail 4.5:1 contrast.
      sx={{ color: 'text.primary', borderColor: `${COLORS[status as keyof typeof COLORS] ?? 'grey'}.main` }}
      label={translate(`offers.status.${status}`, { _: status })}
    />
  );
};
