import FactCheckIcon from '@mui/icons-material/FactCheck';
import { Button, Divider, Stack, Tab, Tabs, Typography } from '@mui/material';
import { PRODUCT_REVIEW } from '@offers/rules';
import { useState } from 'react';
import {
  Confirm,
  Datagrid,
  DateField,
  ImageField,
  List,
  TextField,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { NumberedPagination } from '../common/NumberedPagination';
import { StatusField } from '../common/StatusField';
import { ReasonDialog } from '../coupon-reviews/ReasonDialog';
import type { OffersDataProvider } from '../providers/dataProvider';

const TABS = ['pending', 'approved'] as const;
/** The older client's prompts' defaults (spec §4 "Product approval"). */
const DEFAULT_REASON = PRODUCT_REVIEW.defaultReason;
const DEFAULT_ADVICE = PRODUCT_REVIEW.defaultAdvisedChanges;

/** Approve after a confirm; Reject asks a reason, then advised changes; cancelling aborts. */
const ProductReviewButtons = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const [dialog, setDialog] = useState<'approve' | 'reject'>();
  const [processing, setProcessing] = useState(false);
  if (!record) return null;
  if (record.status === 'approved') {
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
      notify(done, { type: 'success', messageArgs: { id: record.id } });
      refresh();
    } catch (error) {
      notify(`${translate(failed)}${(error as Error).message}`, { type: 'error' });
    } finally {
      setProcessing(false);
    }
  };
  const label = (key: string) => (processing ? translate('offers.review.processing') : translate(key));
  return (
    <>
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          variant="contained"
          disabled={processing}
          onClick={() => setDialog('approve')}
          aria-label={`${translate('offers.review.approve')} ${record.productName}`}
        >
          {label('offers.review.approve')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={processing}
          onClick={() => setDialog('reject')}
          aria-label={`${translate('offers.review.reject')} ${record.productName}`}
        >
          {label('offers.review.reject')}
        </Button>
      </Stack>
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
        onClose={() => setDialog(undefined)}
      />
      <ReasonDialog
        open={dialog === 'reject'}
        title={translate('offers.review.rejectTitle', { title: record.productName })}
        defaultReason={DEFAULT_REASON}
        advice={DEFAULT_ADVICE}
        requiredMessage="offers.products.reasonRequired"
        onCancel={() => setDialog(undefined)}
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
