import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/HighlightOff';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import { ReasonDialog } from '../common/ReasonDialog';
import { REJECTION_TEXTS } from '../common/ReviewActions';
import type { OffersDataProvider } from '../providers/dataProvider';

/** Reviews the selected coupons one by one; reports how many succeeded and the first failure. */
function useBulkReview() {
  const { selectedIds, data = [], resource } = useListContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const translate = useTranslate();
  const [processing, setProcessing] = useState(false);

  const review = async (
    action: (record: (typeof data)[number]) => Promise<unknown>,
    done: string,
    failed: string,
  ) => {
    setProcessing(true);
    const chosen = data.filter((record) => selectedIds.includes(record.id) && record.status === 'pending');
    let succeeded = 0;
    let failure: string | undefined;
    for (const record of chosen) {
      try {
        await action(record);
        succeeded += 1;
      } catch (error) {
        failure ??= `${translate(failed)}${(error as Error).message}`;
      }
    }
    setProcessing(false);
    if (succeeded) notify(done, { type: 'success', messageArgs: { smart_count: succeeded } });
    if (failure) notify(failure, { type: 'error' });
    unselectAll();
    refresh();
  };
  return { count: selectedIds.length, processing, review, dataProvider, translate };
}

export const BulkApproveButton = () => {
  const { count, processing, review, dataProvider, translate } = useBulkReview();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        label={processing ? 'offers.review.processing' : 'offers.review.approve'}
        disabled={processing}
        onClick={() => setOpen(true)}
      >
        <CheckIcon />
      </Button>
      <Confirm
        isOpen={open}
        title={translate('offers.review.approve')}
        content={translate('offers.review.bulkApproveConfirm', { smart_count: count })}
        confirm="offers.review.approve"
        onConfirm={() => {
          setOpen(false);
          review(
            (record) => dataProvider.approveCoupon(record.id, record.requestedSlotId),
            'offers.review.bulkApproved',
            'offers.review.approveFailed',
          );
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

export const BulkRejectButton = () => {
  const { count, processing, review, dataProvider, translate } = useBulkReview();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        label={processing ? 'offers.review.processing' : 'offers.review.reject'}
        disabled={processing}
        onClick={() => setOpen(true)}
        color="error"
      >
        <CloseIcon />
      </Button>
      <ReasonDialog
        open={open}
        title={translate('offers.review.bulkRejectTitle', { smart_count: count })}
        texts={REJECTION_TEXTS}
        onCancel={() => setOpen(false)}
        onConfirm={({ reason }) => {
          setOpen(false);
          review(
            (record) => dataProvider.rejectCoupon(record.id, reason),
            'offers.review.bulkRejected',
            'offers.review.rejectFailed',
          );
        }}
      />
    </>
  );
};
