import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ReasonTexts } from './ReasonDialog';

type ReviewDialog = 'approve' | 'reject';

/** The reason dialog of a rejection, coupon or product: the merchant reads the reason. */
export const REJECTION_TEXTS: ReasonTexts = {
  label: 'offers.review.reason',
  help: 'offers.review.reasonHelp',
  required: 'offers.review.reasonRequired',
  confirm: 'offers.review.reject',
};

/**
 * One row's review: which dialog is open and whether its request runs. `run` closes the dialog,
 * notifies the outcome with the spec's prefix ('Approve failed: ', ...) and refreshes the list.
 */
export function useReviewAction(messageArgs?: Record<string, unknown>) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [dialog, setDialog] = useState<ReviewDialog>();
  const [processing, setProcessing] = useState(false);

  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    setDialog(undefined);
    setProcessing(true);
    try {
      await action();
      notify(done, { type: 'success', messageArgs });
      refresh();
    } catch (error) {
      notify(`${translate(failed)}${(error as Error)?.message ?? ''}`, { type: 'error' });
    } finally {
      setProcessing(false);
    }
  };
  return { dialog, open: setDialog, close: () => setDialog(undefined), processing, run };
}

/** Approve and Reject of one row; while it is processing both are disabled and read 'Processing…'. */
export function ReviewActionButtons({
  name,
  processing,
  onOpen,
}: {
  /** What is reviewed, for the buttons' accessible names. */
  name: string;
  processing: boolean;
  onOpen: (dialog: ReviewDialog) => void;
}) {
  const translate = useTranslate();
  const label = (key: string) => (processing ? translate('offers.review.processing') : translate(key));
  return (
    // A click on a button is not a click on its row. Stacked, so the queue's columns fit a laptop.
    <Stack spacing={1} onClick={(event) => event.stopPropagation()}>
      <Button
        size="small"
        variant="contained"
        disabled={processing}
        onClick={() => onOpen('approve')}
        aria-label={`${translate('offers.review.approve')} ${name}`}
      >
        {label('offers.review.approve')}
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        disabled={processing}
        onClick={() => onOpen('reject')}
        aria-label={`${translate('offers.review.reject')} ${name}`}
      >
        {label('offers.review.reject')}
      </Button>
    </Stack>
  );
}

/** The disabled 'Approved' button of a row already approved. */
export function ApprovedButton() {
  const translate = useTranslate();
  return (
    <Button size="small" variant="outlined" disabled>
      {translate('offers.review.approved')}
    </Button>
  );
}
