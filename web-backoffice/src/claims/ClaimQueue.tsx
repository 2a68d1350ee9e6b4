import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import {
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  TextField as TextInput,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import {
  type AdminClaim,
  CLAIM_KINDS,
  CLAIM_RULES,
  CLAIM_STATES,
  formatRupees,
  rupeesToPaise,
} from '@offers/api/rules';
import { type ReactNode, useId, useState } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  RecordContextProvider,
  SelectInput,
  TextField,
  useDataProvider,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import type { OffersDataProvider } from '../providers/dataProvider';

const STATE_CHOICES = CLAIM_STATES.map((state) => ({ id: state, name: `offers.claims.state.${state}` }));
const KIND_CHOICES = CLAIM_KINDS.map((kind) => ({ id: kind, name: `offers.claims.kind.${kind}` }));

/** Asks the reason the shopper will read, then rejects. */
const RejectDialog = ({
  open,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) => {
  const translate = useTranslate();
  const id = useId();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = !reason.trim()
    ? 'offers.claims.reasonRequired'
    : reason.length > CLAIM_RULES.reasonMaxLength
      ? 'offers.claims.reasonTooLong'
      : undefined;
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{translate('offers.claims.rejectTitle')}</DialogTitle>
      <DialogContent>
        <TextInput
          autoFocus
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          label={translate('offers.claims.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && !!problem}
          helperText={
            touched && problem
              ? translate(problem, { max: CLAIM_RULES.reasonMaxLength })
              : translate('offers.claims.reasonHint')
          }
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          color="error"
          disabled={busy}
          onClick={() => {
            setTouched(true);
            if (!problem) onConfirm(reason.trim());
          }}
        >
          {translate('offers.claims.reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Approve (a claim becomes pending cashback; a held purchase is credited) or reject with a reason. */
const Decide = (_props: { label?: string }) => {
  const record = useRecordContext<AdminClaim>();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const { busy, run } = useAdminAction();
  const [rejecting, setRejecting] = useState(false);
  if (record?.state !== 'open') return null;
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="contained"
        disabled={busy}
        aria-label={`${translate('offers.claims.approve')} #${record.id}`}
        onClick={() => run(() => dataProvider.approveClaim(record.id), 'offers.claims.approved')}
      >
        {translate('offers.claims.approve')}
      </Button>
      <Button
        size="small"
        color="error"
        disabled={busy}
        aria-label={`${translate('offers.claims.reject')} #${record.id}`}
        onClick={() => setRejecting(true)}
      >
        {translate('offers.claims.reject')}
      </Button>
      <RejectDialog
        open={rejecting}
        busy={busy}
        onCancel={() => setRejecting(false)}
        onConfirm={async (reason) => {
          await run(() => dataProvider.rejectClaim(record.id, reason), 'offers.claims.rejected');
          setRejecting(false);
        }}
      />
    </Stack>
  );
};

/** The amount as India writes it: ₹1,23,456.50 (the API sends rupees as "123456.50"). */
const amountText = (record: AdminClaim) => formatRupees(rupeesToPaise(record.amount));

const shopperText = (record: AdminClaim) => `${record.shopperName ?? ''} (#${record.userId})`;

const InvoiceLink = ({ record }: { record: AdminClaim }) => {
  const translate = useTranslate();
  return record.invoiceUrl ? (
    <Link href={record.invoiceUrl} target="_blank" rel="noopener">
      {translate('offers.claims.openInvoice')}
    </Link>
  ) : (
    '—'
  );
};

const addressText = (record: AdminClaim, translate: (key: string) => string) =>
  record.sameAddress === null
    ? '—'
    : translate(record.sameAddress ? 'offers.claims.sameAddress' : 'offers.claims.otherAddress');

const stateText = (record: AdminClaim, translate: (key: string) => string) =>
  record.reason
    ? `${translate(`offers.claims.state.${record.state}`)}: ${record.reason}`
    : translate(`offers.claims.state.${record.state}`);

/** A cell's fact and, muted below it, what it is read with. */
const TwoLines = ({ first, second }: { first: ReactNode; second: ReactNode }) => (
  <>
    <div>{first}</div>
    <Typography variant="body2" color="text.secondary">
      {second}
    </Typography>
  </>
);

const NothingWaits = () => {
  const translate = useTranslate();
  return <Typography sx={{ p: 2 }}>{translate('offers.claims.none')}</Typography>;
};

/**
 * The queue on a phone: a card per item with everything a row of the table has, top to bottom,
 * so nothing needs scrolling sideways; the decision's buttons at the bottom.
 */
const ClaimCards = () => {
  const { data, isPending } = useListContext<AdminClaim>();
  const translate = useTranslate();
  if (isPending) return null;
  if (!data?.length) return <NothingWaits />;
  const field = (name: string) => translate(`resources.missing-cashback-claims.fields.${name}`);
  return (
    <Stack
      component="ul"
      aria-label={translate('resources.missing-cashback-claims.name', { smart_count: 2 })}
      spacing={1.5}
      sx={{ listStyle: 'none', m: 0, p: 1 }}
    >
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card component="li" variant="outlined" sx={{ overflowWrap: 'anywhere' }}>
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                #{record.id} · {amountText(record)} · {record.storeName}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(`offers.claims.kind.${record.kind}`)} · {stateText(record, translate)}
              </Typography>
              <Stack
                component="dl"
                spacing={0.5}
                sx={{ my: 1, '& dt': { fontWeight: 600 }, '& dd': { m: 0 } }}
              >
                <div>
                  <dt>{field('userId')}</dt>
                  <dd>{shopperText(record)}</dd>
                </div>
                <div>
                  <dt>{field('orderId')}</dt>
                  <dd>
                    {record.orderId} · {record.orderDate}
                  </dd>
                </div>
                <div>
                  <dt>{field('clickedAt')}</dt>
                  <dd>
                    <DateField source="clickedAt" showTime emptyText="—" /> · {record.couponTitle ?? '—'}
                  </dd>
                </div>
                <div>
                  <dt>{field('sameAddress')}</dt>
                  <dd>{addressText(record, translate)}</dd>
                </div>
                <div>
                  <dt>{field('filedAt')}</dt>
                  <dd>
                    <DateField source="filedAt" showTime />
                  </dd>
                </div>
                <div>
                  <dt>{field('invoiceUrl')}</dt>
                  <dd>
                    <InvoiceLink record={record} />
                  </dd>
                </div>
              </Stack>
              <Decide />
            </CardContent>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
};

/** The admins' queue: shoppers' claims and purchases held for a decision, open ones first. */
export const missingCashbackClaims = {
  list: () => {
    const translate = useTranslate();
    // Below the tablet width the table's columns do not fit: a card per item instead.
    const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
    return (
      <List
        exporter={false}
        sort={{ field: 'filedAt', order: 'ASC' }}
        filterDefaultValues={{ state: 'open' }}
        filters={[
          <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
          <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
        ]}
        empty={false}
      >
        {isSmall ? (
          <ClaimCards />
        ) : (
          <Datagrid
            bulkActionButtons={false}
            rowClick={false}
            empty={<NothingWaits />}
            sx={{ '& .MuiTableCell-root': { px: 1 } }}
          >
            <TextField source="id" />
            <FunctionField
              source="kind"
              render={(record: AdminClaim) => translate(`offers.claims.kind.${record.kind}`)}
            />
            <FunctionField source="userId" sortable={false} render={shopperText} />
            {/* Each fact with what it is read with, so the table fits a laptop's screen. */}
            <FunctionField
              source="storeName"
              sortable={false}
              render={(record: AdminClaim) => (
                <TwoLines first={record.storeName} second={record.couponTitle ?? '—'} />
              )}
            />
            <FunctionField
              source="clickedAt"
              sortable={false}
              render={(record: AdminClaim) => (
                <TwoLines
                  first={<DateField source="clickedAt" showTime emptyText="—" />}
                  second={addressText(record, translate)}
                />
              )}
            />
            <FunctionField
              source="orderId"
              sortable={false}
              render={(record: AdminClaim) => <TwoLines first={record.orderId} second={record.orderDate} />}
            />
            <FunctionField
              source="amount"
              sortable={false}
              render={(record: AdminClaim) => (
                <span style={{ whiteSpace: 'nowrap' }}>{amountText(record)}</span>
              )}
            />
            <FunctionField
              source="invoiceUrl"
              sortable={false}
              render={(record: AdminClaim) => <InvoiceLink record={record} />}
            />
            <DateField source="filedAt" showTime />
            <FunctionField source="state" render={(record: AdminClaim) => stateText(record, translate)} />
            <Decide label="offers.claims.decide" />
          </Datagrid>
        )}
      </List>
    );
  },
  icon: ReceiptLongIcon,
};
