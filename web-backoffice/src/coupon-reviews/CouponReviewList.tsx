import RateReviewIcon from '@mui/icons-material/RateReview';
import { Box, Chip, Typography } from '@mui/material';
import { COUPON_LISTING, COUPON_TEXT_FIELDS, COUPON_TEXT_LANGUAGES, formatRupees } from '@offers/api/rules';
import {
  Datagrid,
  FunctionField,
  ImageField,
  List,
  NumberField,
  type RaRecord,
  SelectInput,
  TextField,
  useListContext,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
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

/**
 * The title, and under it the description; then the same in Hindi and Telugu where the coupon has
 * them, and whether it is exclusive.
 */
const OfferCell = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {record.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {record.description}
      </Typography>
      {COUPON_TEXT_LANGUAGES.map((language) => {
        const fields = COUPON_TEXT_FIELDS[language];
        if (!record[fields.title]) return null;
        return (
          <Box key={language} sx={{ mt: 0.5 }} data-testid={`offer-${language}`}>
            <Typography variant="caption" color="text.secondary">
              {translate(`offers.content.languages.${language}`)}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 500 }} lang={language}>
              {record[fields.title]}
            </Typography>
            <Typography variant="body2" color="text.secondary" lang={language}>
              {record[fields.description]}
            </Typography>
          </Box>
        );
      })}
      {record.exclusive && (
        <Chip size="small" sx={{ mt: 0.5 }} label={translate('resources.coupon-reviews.fields.exclusive')} />
      )}
    </>
  );
};

/** The code, or that it is a deal without one. */
const CodeCell = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  return record.couponCode ? (
    <Typography variant="body2">{record.couponCode}</Typography>
  ) : (
    <Typography variant="body2" color="text.secondary">
      {translate('resources.coupon-reviews.fields.deal')}
    </Typography>
  );
};

/**
 * The discount in rupees (whole rupees in the API; the shared formatter takes paise), then the
 * percentage; a dash for what the coupon does not give.
 */
const discountCell = (record: RaRecord) => (
  <>
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {record.discountValue == null ? '—' : formatRupees(Number(record.discountValue) * 100)}
    </Typography>
    <Typography variant="body2">{record.percentage == null ? '—' : `${record.percentage}%`}</Typography>
  </>
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
      // Narrow cell padding, so a row and its buttons fit a laptop's screen; the offer, which a
      // reviewer reads first, keeps room to be read in a few lines.
      sx={{ '& .MuiTableCell-root': { px: 1 }, '& .column-title': { minWidth: 200 } }}
    >
      <ImageField
        source="imageUrl"
        title="title"
        sortable={false}
        sx={{ '& img': { maxWidth: 96, maxHeight: 64 } }}
      />
      <TextField source="merchantName" sortable={false} />
      <TextField source="requestedSlotName" sortable={false} />
      <FunctionField source="couponCode" sortable={false} render={(record) => <CodeCell record={record} />} />
      {/* What the coupon promises next to what it gives, so a reviewer sees a mismatch at once. */}
      <FunctionField
        source="title"
        label="resources.coupon-reviews.fields.offer"
        render={(record) => <OfferCell record={record} />}
      />
      <FunctionField
        source="discountValue"
        label="resources.coupon-reviews.fields.discount"
        sortable={false}
        render={discountCell}
      />
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
