import RateReviewIcon from '@mui/icons-material/RateReview';
import { Typography } from '@mui/material';
import { COUPON_LISTING } from '@offers/rules';
import { Datagrid, DateField, ImageField, List, SelectInput, TextField, useTranslate } from 'react-admin';
import { NumberedPagination } from '../common/NumberedPagination';
import { StatusField } from '../common/StatusField';
import { BulkApproveButton, BulkRejectButton } from './BulkReviewButtons';
import { ReviewButtons } from './ReviewButtons';

const STATUSES = ['pending', 'live', 'rejected', 'expired', 'withdrawn'];

const StatusFilter = () => {
  const translate = useTranslate();
  return (
    <SelectInput
      source="status"
      choices={STATUSES.map((id) => ({ id, name: translate(`offers.status.${id}`) }))}
      alwaysOn
      emptyText="ra.action.select_all"
    />
  );
};

const NothingPending = () => {
  const translate = useTranslate();
  return <Typography sx={{ p: 2 }}>{translate('offers.review.noPending')}</Typography>;
};

/** The coupon approval queue: pending coupons, five a page, oldest first. */
export const CouponReviewList = () => (
  <List
    filters={[<StatusFilter key="status" />]}
    filterDefaultValues={{ status: 'pending' }}
    perPage={COUPON_LISTING.reviewPerPage}
    pagination={<NumberedPagination />}
    sort={{ field: 'submittedAt', order: 'ASC' }}
    exporter={false}
    empty={false}
    disableSyncWithLocation={false}
  >
    <Datagrid
      bulkActionButtons={
        <>
          <BulkApproveButton />
          <BulkRejectButton />
        </>
      }
      rowClick={false}
      empty={<NothingPending />}
    >
      <ImageField
        source="imageUrl"
        title="title"
        sortable={false}
        sx={{ '& img': { maxWidth: 120, maxHeight: 80 } }}
      />
      <TextField source="merchantName" sortable={false} />
      <TextField source="requestedSlotName" sortable={false} />
      <TextField source="couponCode" sortable={false} />
      <TextField source="title" />
      <TextField source="termsAndConditions" sortable={false} />
      <DateField source="expiryDate" />
      <StatusField source="status" />
      <ReviewButtons />
    </Datagrid>
  </List>
);

export const couponReviews = { list: CouponReviewList, icon: RateReviewIcon };
