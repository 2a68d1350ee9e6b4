import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import {
  type Identifier,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { OffersDataProvider } from '../providers/dataProvider';
import { ApproveDialog } from './ApproveDialog';
import { ReasonDialog } from './ReasonDialog';

const failureText = (error: unknown) => (error as Error)?.message ?? '';

/** Approve and Reject for one coupon; while it is processing both read 'Processing…'. */
export const ReviewButtons = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const [dialog, setDialog] = useState<'approve' | 'reject'>();
  const [processing, setProcessing] = useState(false);
  if (!record) return null;
  if (record.status === 'live') {
    return (
      <Button size="small" variant="outlined" disabled>
        {translate('offers.review.approved')}
      </Button>
    );
  }
  if (record.status !== 'pending') return null;

  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    setDialog(undefined);
    setProcessing(true);
    try {
      await action();
      notify(done, { type: 'success' });
      refresh();
    } catch (error) {
      notify(`${translate(failed)}${failureText(error)}`, { type: 'error' });
    } finally {
      setProcessing(false);
    }
  };

  const label = (key: string) => (processing ? translate('offers.review.processing') : translate(key));
  return (
    <>
      <Stack direction="row" spacing={1} onClick={(event) => event.stopPropagation()}>
        <Button
          size="small"
          variant="contained"
          disabled={processing}
          onClick={() => setDialog('approve')}
          aria-label={`${translate('offers.review.approve')} ${record.title}`}
        >
          {label('offers.review.approve')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={processing}
          onClick={() => setDialog('reject')}
          aria-label={`${translate('offers.review.reject')} ${record.title}`}
        >
          {label('offers.review.reject')}
        </Button>
      </Stack>
      <ApproveDialog
        open={dialog === 'approve'}
        title={translate('offers.review.approveTitle', { title: record.title })}
        requestedSlotId={record.requestedSlotId}
        onCancel={() => setDialog(undefined)}
        onConfirm={(slotId: Identifier) =>
          run(
            () => dataProvider.approveCoupon(record.id, slotId),
            'offers.review.couponApproved',
            'offers.review.approveFailed',
          )
        }
      />
      <ReasonDialog
        open={dialog === 'reject'}
        title={translate('offers.review.rejectTitle', { title: record.title })}
        onCancel={() => setDialog(undefined)}
        onConfirm={({ reason }) =>
          run(
            () => dataProvider.rejectCoupon(record.id, reason),
            'offers.review.couponRejected',
            'offers.review.rejectFailed',
          )
        }
      />
    </>
  );
};
