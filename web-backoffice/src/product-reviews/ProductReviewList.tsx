import FactCheckIcon from '@mui/icons-material/FactCheck';
import { Divider, Tab, Tabs, Typography } from '@mui/material';
import { PRODUCT_REVIEW } from '@offers/api/rules';
import {
  Confirm,
  Datagrid,
  ImageField,
  List,
  TextField,
  useDataProvider,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { NumberedPagination } from '../common/NumberedPagination';
import { type AdviceStep, ReasonDialog, type ReasonTexts } from '../common/ReasonDialog';
import {
  ApprovedButton,
  REJECTION_TEXTS,
  ReviewActionButtons,
  useReviewAction,
} from '../common/ReviewActions';
import { StatusField } from '../common/StatusField';
import type { OffersDataProvider } from '../providers/dataProvider';

const TABS = ['pending', 'approved'] as const;
/** The older client's prompts' defaults (spec §4 "Product approval"). */
const DEFAULT_REASON = PRODUCT_REVIEW.defaultReason;
const ADVICE: AdviceStep = {
  defaultText: PRODUCT_REVIEW.defaultAdvisedChanges,
  label: 'offers.review.advisedChanges',
  next: 'offers.review.next',
};
const TEXTS: ReasonTexts = { ...REJECTION_TEXTS, required: 'offers.products.reasonRequired' };

/** Approve after a confirm; Reject asks a reason, then advised changes; cancelling aborts. */
const ProductReviewButtons = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const { dialog, open, close, processing, run } = useReviewAction({ id: record?.id });
  if (!record) return null;
  if (record.status === 'approved') return <ApprovedButton />;
  if (record.status !== 'pending') return null;

  return (
    <>
      <ReviewActionButtons name={record.productName} processing={processing} onOpen={open} />
      <Confirm
        isOpen={dialog === 'approve'}
        title={translate('offers.review.approveTitle', { title: record.productName })}
        content="offers.products.approveConfirm"
        confirm="offers.review.approve"
        onConfirm={() =>
          run(
            () => dataProvider.approveProduct(record.id),
            'offers.products.approvedNotice',
            'offers.review.approveFailed',
          )
        }
        onClose={close}
      />
      <ReasonDialog
        open={dialog === 'reject'}
        title={translate('offers.review.rejectTitle', { title: record.productName })}
        texts={TEXTS}
        defaultReason={DEFAULT_REASON}
        advice={ADVICE}
        onCancel={close}
        onConfirm={({ reason, advisedChanges }) =>
          run(
            () => dataProvider.rejectProduct(record.id, reason, advisedChanges ?? ''),
            'offers.products.rejectedNotice',
            'offers.review.rejectFailed',
          )
        }
      />
    </>
  );
};

const EmptyTab = () => {
  const { filterValues } = useListContext();
  const translate = useTranslate();
  return (
    <Typography sx={{ p: 2 }}>
      {translate(
        filterValues.status === 'approved' ? 'offers.products.noApproved' : 'offers.products.noPending',
      )}
    </Typography>
  );
};

const TabbedDatagrid = () => {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const translate = useTranslate();
  const status = filterValues.status === 'approved' ? 'approved' : 'pending';
  return (
    <>
      <Tabs
        value={status}
        onChange={(_, next: string) => setFilters({ ...filterValues, status: next }, displayedFilters)}
        aria-label={translate('resources.product-reviews.name', { smart_count: 2 })}
      >
        {TABS.map((tab) => (
          <Tab key={tab} value={tab} label={translate(`offers.products.tabs.${tab}`)} />
        ))}
      </Tabs>
      <Divider />
      <Datagrid rowClick={false} bulkActionButtons={false} empty={<EmptyTab />}>
        <ImageField
          source="imageUrl"
          title="productName"
          sortable={false}
          sx={{ '& img': { maxWidth: 120, maxHeight: 80 } }}
        />
        <TextField source="productName" />
        <TextField source="merchantName" sortable={false} />
        <TextField source="categoryName" sortable={false} emptyText="—" />
        <TextField source="brand" sortable={false} emptyText="—" />
        <TextField source="price" sortable={false} />
        <DateField source="submittedAt" showTime />
        <StatusField source="status" />
        <ProductReviewButtons />
      </Datagrid>
    </>
  );
};

/** Merchant products waiting for approval, and those approved, five a page. */
export const ProductReviewList = () => (
  <List
    filterDefaultValues={{ status: 'pending' }}
    perPage={PRODUCT_REVIEW.perPage}
    pagination={<NumberedPagination />}
    sort={{ field: 'submittedAt', order: 'ASC' }}
    exporter={false}
    empty={false}
  >
    <TabbedDatagrid />
  </List>
);

export const productReviews = { list: ProductReviewList, icon: FactCheckIcon };
