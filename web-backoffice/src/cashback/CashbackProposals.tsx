import LightbulbIcon from '@mui/icons-material/Lightbulb';
import { Button, Stack } from '@mui/material';
import { CASHBACK_PROPOSAL_STATES, type CashbackProposal } from '@offers/api/rules';
import {
  Datagrid,
  FunctionField,
  List,
  ReferenceField,
  SelectInput,
  TextField,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import type { OffersDataProvider } from '../providers/dataProvider';
import { rateText } from './RateInput';

const STATE_CHOICES = CASHBACK_PROPOSAL_STATES.map((state) => ({
  id: state,
  name: `offers.cashback.proposalState.${state}`,
}));

/** Accept (the rate becomes the store's base rate) or dismiss an open proposal. */
const Decide = (_props: { label?: string }) => {
  const record = useRecordContext<CashbackProposal>();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const { busy, run } = useAdminAction();
  if (record?.state !== 'open') return null;
  const decide = (decision: 'accept' | 'dismiss') =>
    run(
      () => dataProvider.decideCashbackProposal(record.id, decision),
      decision === 'accept' ? 'offers.cashback.proposalAccepted' : 'offers.cashback.proposalDismissed',
    );
  return (
    <Stack direction="row" spacing={1}>
      <Button size="small" variant="contained" disabled={busy} onClick={() => decide('accept')}>
        {translate('offers.cashback.accept')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => decide('dismiss')}>
        {translate('offers.cashback.dismiss')}
      </Button>
    </Stack>
  );
};

export const cashbackProposals = {
  list: () => {
    const translate = useTranslate();
    return (
      <List
        exporter={false}
        sort={{ field: 'proposedAt', order: 'DESC' }}
        filterDefaultValues={{ state: 'open' }}
        filters={[<SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />]}
      >
        <Datagrid bulkActionButtons={false} empty={<p>{translate('offers.cashback.noProposals')}</p>}>
          <ReferenceField source="storeId" reference="cashback-rates" link="edit" sortable={false}>
            <TextField source="storeName" />
          </ReferenceField>
          <ReferenceField source="sourceId" reference="feed-sources" link={false} sortable={false}>
            <TextField source="name" />
          </ReferenceField>
          <FunctionField
            label="resources.cashback-proposals.fields.payout"
            render={(record: CashbackProposal) => `${rateText(record.payout)} × ${record.sharePercent}%`}
          />
          <FunctionField
            label="resources.cashback-proposals.fields.rate"
            render={(record: CashbackProposal) => rateText(record.rate)}
          />
          <FunctionField
            label="resources.cashback-proposals.fields.currentRate"
            render={(record: CashbackProposal) =>
              record.currentRate ? rateText(record.currentRate) : translate('offers.cashback.siteDefault')
            }
          />
          <FunctionField
            label="resources.cashback-proposals.fields.state"
            render={(record: CashbackProposal) => translate(`offers.cashback.proposalState.${record.state}`)}
          />
          <DateField source="proposedAt" showTime />
          <Decide label="offers.cashback.decide" />
        </Datagrid>
      </List>
    );
  },
  icon: LightbulbIcon,
};
