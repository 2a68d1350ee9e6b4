import { Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { RecordContextProvider, useListContext, useTranslate } from 'react-admin';
import { DateField } from '../common/DateField';
import { PayoutActions } from './PayoutActions';
import { payoutAmount } from './payoutText';

/**
 * The payout queue on a phone: one card per payout, everything a row of the table has, top to
 * bottom, so nothing needs scrolling sideways. Payouts are taken into a run and paid one at a
 * time here; the bulk steps need the table's row selection and stay on wider screens.
 */
export function PayoutCards({
  stateChip,
  shopper,
  destination,
  empty,
}: {
  stateChip: ReactNode;
  shopper: ReactNode;
  destination: ReactNode;
  empty: ReactNode;
}) {
  const { data, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending) return null;
  if (!data?.length) return <>{empty}</>;
  return (
    <Stack
      component="ul"
      aria-label={translate('resources.payouts.name', { smart_count: 2 })}
      spacing={1.5}
      sx={{ listStyle: 'none', m: 0, p: 1 }}
    >
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card component="li" variant="outlined">
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Stack
                direction="row"
                spacing={1}
                sx={{ justifyContent: 'space-between', alignItems: 'center' }}
              >
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  #{record.id} · {payoutAmount(record)}
                </Typography>
                {stateChip}
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                <DateField source="requestedAt" showTime />
              </Typography>
              <Stack spacing={1} sx={{ mb: 1.5 }}>
                <div>{shopper}</div>
                <div>{destination}</div>
              </Stack>
              <PayoutActions />
            </CardContent>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}
