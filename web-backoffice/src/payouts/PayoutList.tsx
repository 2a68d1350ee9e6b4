import PaymentsIcon from '@mui/icons-material/Payments';
import { Chip, type Theme, Typography, useMediaQuery } from '@mui/material';
import { OPEN_PAYOUTS_FILTER, PAYOUT_METHODS, PAYOUT_STATES } from '@offers/api/rules';
import {
  Datagrid,
  FunctionField,
  List,
  type RaRecord,
  SelectInput,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { NumberedPagination } from '../common/NumberedPagination';
import { BulkMarkPaidButton, BulkProcessButton, PayoutActions } from './PayoutActions';
import { PayoutCards } from './PayoutCards';
import { payoutAmount } from './payoutText';

const StateFilter = (_props: { alwaysOn?: boolean }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      source="state"
      choices={[OPEN_PAYOUTS_FILTER, ...PAYOUT_STATES].map((id) => ({
        id,
        name: translate(`offers.payouts.states.${id}`),
      }))}
      alwaysOn
      emptyText="ra.action.select_all"
    />
  );
};

const MethodFilter = (_props: { alwaysOn?: boolean }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      source="method"
      choices={PAYOUT_METHODS.map((id) => ({ id, name: translate(`offers.payouts.methods.${id}`) }))}
      emptyText="ra.action.select_all"
    />
  );
};

const COLOURS: Record<string, 'warning' | 'info' | 'success' | 'error'> = {
  requested: 'warning',
  processing: 'info',
  paid: 'success',
  failed: 'error',
};

const StateChip = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      // Coloured border, dark text: the palette's warning and success texts fail 4.5:1 contrast.
      sx={{ color: 'text.primary', borderColor: `${COLOURS[record.state] ?? 'grey'}.main` }}
      label={translate(`offers.payouts.states.${record.state}`)}
    />
  );
};

/** Who asked: the name, and the email under it. */
const shopperCell = (record: RaRecord) => (
  <>
    <Typography variant="body2">{record.userName}</Typography>
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      {record.userEmail}
    </Typography>
  </>
);

const ShopperField = () => {
  const record = useRecordContext();
  return record ? shopperCell(record) : null;
};

/** Where the money goes: the method, then the UPI ID or the account's last digits and IFSC. */
const DestinationField = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <>
      <Typography variant="body2">{translate(`offers.payouts.methods.${record.method}`)}</Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {record.destination}
      </Typography>
      {record.accountHolderName && (
        <Typography variant="body2" color="text.secondary">
          {record.accountHolderName}
        </Typography>
      )}
    </>
  );
};

const NothingToPay = () => {
  const translate = useTranslate();
  return <Typography sx={{ p: 2 }}>{translate('offers.payouts.none')}</Typography>;
};

/** The payout queue: payouts still to pay, oldest first, for the admins' payment run. */
export const PayoutList = () => {
  // Below the tablet width the table's seven columns do not fit: a card per payout instead.
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  return (
    <List
      filters={[
        <StateFilter key="state" alwaysOn />,
        <MethodFilter key="method" />,
        <TextInput key="userId" source="userId" />,
      ]}
      filterDefaultValues={{ state: OPEN_PAYOUTS_FILTER }}
      perPage={25}
      pagination={<NumberedPagination />}
      sort={{ field: 'requestedAt', order: 'ASC' }}
      exporter={false}
      empty={false}
      disableSyncWithLocation={false}
    >
      {isSmall ? (
        <PayoutCards
          stateChip={<StateChip />}
          shopper={<ShopperField />}
          destination={<DestinationField />}
          empty={<NothingToPay />}
        />
      ) : (
        <Datagrid
          bulkActionButtons={
            <>
              <BulkProcessButton />
              <BulkMarkPaidButton />
            </>
          }
          rowClick={false}
          empty={<NothingToPay />}
          sx={{ '& .MuiTableCell-root': { px: 1 } }}
        >
          <TextField source="id" />
          <DateField source="requestedAt" showTime />
          <FunctionField source="userName" sortable={false} render={shopperCell} />
          <FunctionField
            source="amount"
            render={(record: RaRecord) => (
              <span style={{ whiteSpace: 'nowrap' }}>{payoutAmount(record)}</span>
            )}
          />
          <DestinationField source="destination" sortable={false} />
          <StateChip source="state" />
          <PayoutActions label="resources.payouts.fields.actions" />
        </Datagrid>
      )}
    </List>
  );
};

export const payouts = { list: PayoutList, icon: PaymentsIcon };
