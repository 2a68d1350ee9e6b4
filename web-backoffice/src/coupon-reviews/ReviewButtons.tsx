import { type Identifier, useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import { ReasonDialog } from '../common/ReasonDialog';
import {
  ApprovedButton,
  REJECTION_TEXTS,
  ReviewActionButtons,
  useReviewAction,
} from '../common/ReviewActions';
import type { OffersDataProvider } from '../providers/dataProvider';
import { ApproveDialog } from './ApproveDialog';

/** Approve and Reject for one coupon; while it is processing both read 'Processing…'. */
export const ReviewButtons = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const { dialog, open, close, processing, run } = useReviewAction();
  if (!record) return null;
  if (record.status === 'live') return <ApprovedButton />;
  if (record.status !== 'pending') return null;

  return (
    <>
      <ReviewActionButtons name={record.title} processing={processing} onOpen={open} />
      <ApproveDialog
        open={dialog === 'approve'}
        title={translate('offers.review.approveTitle', { title: record.title })}
        requestedSlotId={record.requestedSlotId}
        onCancel={close}
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
        texts={REJECTION_TEXTS}
        onCancel={close}
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
