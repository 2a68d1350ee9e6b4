import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  TextField as TextInput,
} from '@mui/material';
import { type AdminClaim, CLAIM_KINDS, CLAIM_RULES, CLAIM_STATES } from '@offers/api/rules';
import { useId, useState } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  SelectInput,
  TextField,
  useDataProvider,
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
        onClick={() => run(() => dataProvider.approveClaim(record.id), 'offers.claims.approved')}
      >
        {translate('offers.claims.approve')}
      </Button>
      <Button size="small" color="error" disabled={busy} onClick={() => setRejecting(true)}>
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

/** The admins' queue: shoppers' claims and purchases held for a decision, open ones first. */
export const missingCashbackClaims = {
  list: () => {
    const translate = useTranslate();
    return (
      <List
        exporter={false}
        sort={{ field: 'filedAt', order: 'ASC' }}
        filterDefaultValues={{ state: 'open' }}
        filters={[
          <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
          <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
        ]}
      >
        <Datagrid bulkActionButtons={false} rowClick={false} empty={<p>{translate('offers.claims.none')}</p>}>
          <FunctionField
            source="kind"
            render={(record: AdminClaim) => translate(`offers.claims.kind.${record.kind}`)}
          />
          <FunctionField
            source="userId"
            sortable={false}
            render={(record: AdminClaim) => `${record.shopperName ?? ''} (#${record.userId})`}
          />
          <TextField source="storeName" sortable={false} />
          <TextField source="couponTitle" sortable={false} emptyText="—" />
          <DateField source="clickedAt" showTime sortable={false} emptyText="—" />
          <FunctionField
            source="sameAddress"
            sortable={false}
            render={(record: AdminClaim) =>
              record.sameAddress === null
                ? '—'
                : translate(record.sameAddress ? 'offers.claims.sameAddress' : 'offers.claims.otherAddress')
            }
          />
          <TextField source="orderId" sortable={false} />
          <TextField source="orderDate" sortable={false} />
          <FunctionField
            source="amount"
            sortable={false}
            render={(record: AdminClaim) => `₹${record.amount}`}
          />
          <FunctionField
            source="invoiceUrl"
            sortable={false}
            render={(record: AdminClaim) =>
              record.invoiceUrl ? (
                <Link href={record.invoiceUrl} target="_blank" rel="noopener">
                  {translate('offers.claims.openInvoice')}
                </Link>
              ) : (
                '—'
              )
            }
          />
          <DateField source="filedAt" showTime />
          <FunctionField
            source="state"
            render={(record: AdminClaim) =>
              record.reason
                ? `${translate(`offers.claims.state.${record.state}`)}: ${record.reason}`
                : translate(`offers.claims.state.${record.state}`)
            }
          />
          <Decide label="offers.claims.decide" />
        </Datagrid>
      </List>
    );
  },
  icon: ReceiptLongIcon,
};
