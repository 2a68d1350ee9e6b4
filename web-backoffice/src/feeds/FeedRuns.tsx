import DownloadIcon from '@mui/icons-material/Download';
import HistoryIcon from '@mui/icons-material/History';
import { Box, Link } from '@mui/material';
import { FEED_RUN_STATUSES } from '@offers/api/rules';
import {
  ArrayField,
  Button,
  Datagrid,
  FunctionField,
  Labeled,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import { StatusField } from '../common/StatusField';
import { API_URL, type OffersDataProvider } from '../providers/dataProvider';
import { TriggerText } from './FeedSources';
import { whileUnderway } from './underway';

/** Accept or discard a run that waits for an admin (it would end over half the source's coupons). */
const DecisionActions = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const { busy, run } = useAdminAction();
  if (record?.status !== 'waiting-for-admin') return null;
  const decide = (decision: 'accept' | 'discard') =>
    run(() => dataProvider.decideFeedRun(record.id, decision), `offers.feeds.${decision}ed`);
  return (
    <TopToolbar>
      <Button label="offers.feeds.accept" disabled={busy} onClick={() => decide('accept')} />
      <Button label="offers.feeds.discard" disabled={busy} onClick={() => decide('discard')} />
    </TopToolbar>
  );
};

/** The rejected rows' CSV, downloaded with the session cookie. */
const RejectionsLink = () => {
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

/** The advertisers' queue with the source's waiting advertisers only. */
const waitingAdvertisersOf = (sourceId: number) =>
  `/feed-advertisers?${new URLSearchParams({
    filter: JSON.stringify({ mapped: 'false', sourceId }),
    displayedFilters: JSON.stringify({ sourceId: true }),
  })}`;

const COUNTS = ['rowsRead', 'added', 'updated', 'unchanged', 'ended', 'duplicates', 'rejected', 'waiting'];

/**
 * The run's report: its counts side by side (as many a line as the screen holds) and, when rows
 * wait for their advertisers' stores, the way to map those advertisers: the rows come in on a
 * later run.
 */
const RunReport = (_props: { label?: false }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(8.5rem, 1fr))', gap: 1.5 }}>
        {COUNTS.map((source) => (
          <Labeled key={source} source={source} className={`ra-field-${source}`}>
            <NumberField source={source} />
          </Labeled>
        ))}
      </Box>
      {record.waiting > 0 && (
        <Link
          component={RouterLink}
          to={waitingAdvertisersOf(record.sourceId)}
          sx={{ mt: 1, display: 'inline-block' }}
        >
          {translate('offers.feeds.mapWaiting')}
        </Link>
      )}
    </>
  );
};

const STATUS_CHOICES = FEED_RUN_STATUSES.map((id) => ({ id, name: `offers.status.${id}` }));

export const feedRuns = {
  list: () => (
    <List
      exporter={false}
      sort={{ field: 'id', order: 'DESC' }}
      queryOptions={{ refetchInterval: (query) => whileUnderway(query.state.data?.data) }}
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
        <NumberField source="waiting" sortable={false} />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show
      actions={<DecisionActions />}
      // Without the decision's toolbar the card keeps react-admin's gap under the app bar.
      sx={{ '& > .RaShow-main:first-child': { mt: '1em' } }}
      queryOptions={{ refetchInterval: (query) => whileUnderway(query.state.data && [query.state.data]) }}
    >
      <SimpleShowLayout>
        <ReferenceField source="sourceId" reference="feed-sources" link="show" />
        <StatusField source="status" />
        <FunctionField source="trigger" render={(run) => <TriggerText trigger={run.trigger} />} />
        <DateField source="requestedAt" showTime />
        <DateField source="startedAt" showTime emptyText="—" />
        <DateField source="finishedAt" showTime emptyText="—" />
        <RunReport label={false} />
        <TextField source="error" emptyText="—" />
        <ArrayField source="rejections">
          <RejectionsLink />
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
