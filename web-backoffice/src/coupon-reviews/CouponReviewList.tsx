import RateReviewIcon from '@mui/icons-material/RateReview';
import { Typography } from '@mui/material';
import { COUPON_LISTING } from '@offers/rules';
import {
  Datagrid,
  DateField,
  ImageField,
  List,
  NumberField,
  SelectInput,
  TextField,
  useListContext,
  useTranslate,
} from 'react-admin';
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
    <ReviewGrid />
  </List>
);

/** The queue's rows; the live tab also shows how shoppers use each coupon. */
const ReviewGrid = () => {
  const live = useListContext().filterValues.status === 'live';
  return (
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
      {live && <NumberField source="clicks" sortable={false} />}
      {live && <NumberField source="votes" sortable={false} />}
      {live && <NumberField source="successRate" sortable={false} emptyText="—" />}
      <ReviewButtons />
    </Datagrid>
  );
};

export const couponReviews = { list: CouponReviewList, icon: RateReviewIcon };
