import DownloadIcon from '@mui/icons-material/Download';
import HistoryIcon from '@mui/icons-material/History';
import { Link } from '@mui/material';
import { FEED_RUN_STATUSES } from '@offers/api/rules';
import { useState } from 'react';
import {
  ArrayField,
  Button,
  Datagrid,
  FunctionField,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { StatusField } from '../common/StatusField';
import { API_URL, type OffersDataProvider } from '../providers/dataProvider';
import { TriggerText } from './FeedSources';

/** Accept or discard a run that waits for an admin (it would end over half the source's coupons). */
const DecisionActions = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (record?.status !== 'waiting-for-admin') return <TopToolbar />;
  const decide = async (decision: 'accept' | 'discard') => {
    setBusy(true);
    try {
      await dataProvider.decideFeedRun(record.id, decision);
      notify(`offers.feeds.${decision}ed`, { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <TopToolbar>
      <Button label="offers.feeds.accept" disabled={busy} onClick={() => decide('accept')} />
      <Button label="offers.feeds.discard" disabled={busy} onClick={() => decide('discard')} />
    </TopToolbar>
  );
};

/** The rejected rows' CSV, downloaded with the session cookie. */
const RejectionsLink = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Link href={`${API_URL}/admin/feed-runs/${record.id}/rejections.csv`} download>
      <DownloadIcon fontSize="small" sx={{ verticalAlign: 'middle', mr: 0.5 }} />
      {translate('offers.feeds.downloadRejections')}
    </Link>
  );
};

const STATUS_CHOICES = FEED_RUN_STATUSES.map((id) => ({ id, name: `offers.status.${id}` }));

export const feedRuns = {
  list: () => (
    <List
      exporter={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={[<SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />]}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <NumberField source="id" />
        <TextField source="sourceName" sortable={false} />
        <StatusField source="status" />
        <FunctionField source="trigger" render={(run) => <TriggerText trigger={run.trigger} />} />
        <DateField source="requestedAt" showTime />
        <DateField source="finishedAt" showTime emptyText="—" />
        <NumberField source="rowsRead" sortable={false} />
        <NumberField source="rejected" sortable={false} />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show actions={<DecisionActions />}>
      <SimpleShowLayout>
        <ReferenceField source="sourceId" reference="feed-sources" link="show" />
        <StatusField source="status" />
        <FunctionField source="trigger" render={(run) => <TriggerText trigger={run.trigger} />} />
        <DateField source="requestedAt" showTime />
        <DateField source="startedAt" showTime emptyText="—" />
        <DateField source="finishedAt" showTime emptyText="—" />
        <NumberField source="rowsRead" />
        <NumberField source="added" />
        <NumberField source="updated" />
        <NumberField source="unchanged" />
        <NumberField source="ended" />
        <NumberField source="duplicates" />
        <NumberField source="rejected" />
        <TextField source="error" emptyText="—" />
        <RejectionsLink label="resources.feed-runs.fields.rejections" />
        <ArrayField source="rejections">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<NoRejections />}>
            <NumberField source="line" />
            <TextField source="rowId" emptyText="—" />
            <TextField source="reason" />
            <TextField source="message" />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  ),
  icon: HistoryIcon,
};

const NoRejections = () => <span>{useTranslate()('offers.feeds.noRejections')}</span>;
