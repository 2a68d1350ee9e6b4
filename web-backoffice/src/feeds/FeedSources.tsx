import KeyIcon from '@mui/icons-material/Key';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RssFeedIcon from '@mui/icons-material/RssFeed';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { FeedSourceRecordAnswer } from '@offers/api/contracts';
import {
  FEED_FIELDS,
  FEED_FORMATS,
  FEED_MODES,
  FEED_POSTBACK,
  FEED_POSTBACK_FIELDS,
  FEED_POSTBACK_MESSAGES,
  FEED_POSTBACK_STATUSES,
  FEED_REVIEW_POLICIES,
  FEED_SCHEDULES_MINUTES,
  FEED_SOURCE_LIMITS,
  type FeedPostbackMapping,
  REQUIRED_FEED_FIELDS,
  REQUIRED_FEED_POSTBACK_FIELDS,
} from '@offers/api/rules';
import { useRef, useState } from 'react';
import {
  BooleanField,
  BooleanInput,
  Button,
  Confirm,
  Create,
  Datagrid,
  Edit,
  EditButton,
  FormDataConsumer,
  FunctionField,
  List,
  maxLength,
  NumberField,
  RadioButtonGroupInput,
  RecordContextProvider,
  ReferenceInput,
  ReferenceManyField,
  required,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextArrayInput,
  TextField,
  TextInput,
  TopToolbar,
  useDataProvider,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import { StatusField } from '../common/StatusField';
import type { OffersDataProvider } from '../providers/dataProvider';
import { whileUnderway } from './underway';

const choices = (values: readonly (string | number)[], prefix: string) =>
  values.map((value) => ({ id: value, name: `offers.feeds.${prefix}.${value}` }));

/** What an edit does with the credential: it is never shown, only replaced or removed. */
const CREDENTIAL_CHOICES = ['keep', 'none', 'header', 'basic'];

const ScheduleField = (_props: { label?: string; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <span>
      {record.scheduleMinutes
        ? translate(`offers.feeds.schedule.${record.scheduleMinutes}`)
        : translate('offers.feeds.onDemand')}
    </span>
  );
};

/** The source's last run: its status and when it was asked for. */
const LastRunField = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record?.lastRun) return <span>{translate('offers.feeds.neverRun')}</span>;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <RecordContextProvider value={record.lastRun}>
        <StatusField />
        <DateField source="requestedAt" showTime />
      </RecordContextProvider>
    </Box>
  );
};

const SourceForm = ({ editing }: { editing: boolean }) => {
  const record = useRecordContext();
  return (
    <SimpleForm>
      <TextInput source="name" validate={[required(), maxLength(FEED_SOURCE_LIMITS.nameMax)]} />
      <SelectInput source="format" choices={choices(FEED_FORMATS, 'format')} validate={required()} />
      <TextInput source="url" type="url" helperText="offers.feeds.urlHint" fullWidth />
      <FormDataConsumer>
        {({ formData }) =>
          formData.url ? (
            <>
              <SelectInput
                source="scheduleMinutes"
                choices={choices(FEED_SCHEDULES_MINUTES, 'schedule')}
                emptyText="offers.feeds.onDemand"
              />
              <SelectInput
                source="credentialChange"
                choices={choices(
                  editing && record?.credential ? CREDENTIAL_CHOICES : CREDENTIAL_CHOICES.slice(1),
                  'credentialChange',
                )}
                defaultValue={editing && record?.credential ? 'keep' : 'none'}
                helperText={
                  record?.credential ? `offers.feeds.credentialSet.${record.credential.kind}` : false
                }
              />
              {formData.credentialChange === 'header' && (
                <Box sx={{ display: 'flex', gap: 2 }}>
                  <TextInput source="credentialName" validate={required()} />
                  <TextInput source="credentialValue" type="password" validate={required()} />
                </Box>
              )}
              {formData.credentialChange === 'basic' && (
                <Box sx={{ display: 'flex', gap: 2 }}>
                  <TextInput source="credentialUsername" validate={required()} />
                  <TextInput source="credentialPassword" type="password" validate={required()} />
                </Box>
              )}
            </>
          ) : null
        }
      </FormDataConsumer>
      <FormDataConsumer>
        {({ formData }) =>
          formData.format === 'mapped-csv' ? (
            <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
              <legend>
                <MappingLegend />
              </legend>
              <SelectInput
                source="mapping.separator"
                choices={[',', ';', '\t', '|'].map((id) => ({
                  id,
                  name: `offers.feeds.separator.${id === '\t' ? 'tab' : id}`,
                }))}
                defaultValue=","
              />
              <Box
                sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 1 }}
              >
                {FEED_FIELDS.map((field) => (
                  <TextInput
                    key={field}
                    source={`mapping.columns.${field}`}
                    label={`offers.feeds.field.${field}`}
                    validate={REQUIRED_FEED_FIELDS.includes(field) ? required() : undefined}
                  />
                ))}
              </Box>
            </Box>
          ) : null
        }
      </FormDataConsumer>
      <RadioButtonGroupInput source="mode" choices={choices(FEED_MODES, 'mode')} defaultValue="full" />
      <RadioButtonGroupInput
        source="reviewPolicy"
        choices={choices(FEED_REVIEW_POLICIES, 'policy')}
        defaultValue="review"
      />
      <ReferenceInput source="slotId" reference="slots">
        <SelectInput optionText="name" helperText="offers.feeds.slotHint" />
      </ReferenceInput>
      <TextInput source="subIdParam" defaultValue={FEED_SOURCE_LIMITS.defaultSubIdParam} />
      {editing && <PostbackMappingInputs />}
      <BooleanInput source="enabled" defaultValue />
    </SimpleForm>
  );
};

const postbackFieldName: Validator = (value) =>
  value && (!FEED_POSTBACK.fieldName.test(value) || value === FEED_POSTBACK.tokenParam)
    ? FEED_POSTBACK_MESSAGES.fieldName
    : undefined;

const statusWords: Validator = (words) =>
  !Array.isArray(words) ||
  words.length === 0 ||
  words.length > FEED_POSTBACK.statusWordsMax ||
  words.some((word) => typeof word !== 'string' || !word.trim() || word.length > FEED_POSTBACK.statusWordMax)
    ? FEED_POSTBACK_MESSAGES.statusWords
    : undefined;

/**
 * How the source's network names its postbacks' fields, and its words for each status. A new
 * source gets its format's preset; the admin adjusts it here to what the network sends.
 */
const PostbackMappingInputs = () => {
  const translate = useTranslate();
  return (
    <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mb: 2 }}>
      <legend>{translate('offers.feeds.postbackMapping')}</legend>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.feeds.postbackMappingHint')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 1 }}>
        {FEED_POSTBACK_FIELDS.map((field) => (
          <TextInput
            key={field}
            source={`postbackMapping.fields.${field}`}
            label={`offers.feeds.postbackField.${field}`}
            validate={
              (REQUIRED_FEED_POSTBACK_FIELDS as readonly string[]).includes(field)
                ? [required(), postbackFieldName]
                : postbackFieldName
            }
          />
        ))}
      </Box>
      {FEED_POSTBACK_STATUSES.map((status) => (
        <TextArrayInput
          key={status}
          source={`postbackMapping.statuses.${status}`}
          label={`offers.feeds.postbackStatus.${status}`}
          helperText="offers.feeds.statusWordsHint"
          validate={statusWords}
          fullWidth
        />
      ))}
    </Box>
  );
};

const MappingLegend = () => <>{useTranslate()('offers.feeds.mapping')}</>;

const FORM_ONLY = [
  'id',
  'createdAt',
  'updatedAt',
  'lastRun',
  'slotName',
  'postbackSecret',
  'credential',
  'credentialChange',
  'credentialName',
  'credentialValue',
  'credentialUsername',
  'credentialPassword',
  'postbackUrl',
];

const sameMapping = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The postback mapping as the API takes it: unmapped fields null. Left out when the admin changed
 * the format without touching it, so the new format's preset applies.
 */
function postbackMappingToApi(
  data: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
): FeedPostbackMapping | undefined {
  const mapping = data.postbackMapping as FeedPostbackMapping | undefined;
  if (!mapping || !previous) return undefined;
  if (data.format !== previous.format && sameMapping(mapping, previous.postbackMapping)) return undefined;
  return {
    fields: Object.fromEntries(
      FEED_POSTBACK_FIELDS.map((field) => [field, mapping.fields?.[field]?.trim() || null]),
    ) as FeedPostbackMapping['fields'],
    statuses: Object.fromEntries(
      FEED_POSTBACK_STATUSES.map((status) => [status, mapping.statuses?.[status] ?? []]),
    ) as FeedPostbackMapping['statuses'],
  };
}

/**
 * The form as the API takes it: no address means an uploaded feed (no schedule, no credential);
 * the credential is sent only when replaced or removed, and a mapping only for a mapped CSV.
 */
export function sourceToApi(
  data: Record<string, unknown>,
  hadCredential: boolean,
  previous?: Record<string, unknown>,
) {
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(data).filter(([name]) => !FORM_ONLY.includes(name)),
  );
  const url = typeof data.url === 'string' && data.url.trim() ? data.url.trim() : null;
  body.url = url;
  body.scheduleMinutes = url && data.scheduleMinutes ? Number(data.scheduleMinutes) : null;
  const change = url ? (data.credentialChange ?? (hadCredential ? 'keep' : 'none')) : 'none';
  if (change === 'header')
    body.credential = { kind: 'header', name: data.credentialName, value: data.credentialValue };
  else if (change === 'basic')
    body.credential = { kind: 'basic', username: data.credentialUsername, password: data.credentialPassword };
  else if (change === 'none' && hadCredential) body.credential = null;
  if (data.format === 'mapped-csv' && data.mapping) {
    const mapping = data.mapping as { columns?: Record<string, string>; separator?: string };
    body.mapping = {
      separator: mapping.separator ?? ',',
      columns: Object.fromEntries(Object.entries(mapping.columns ?? {}).filter(([, column]) => column)),
    };
  } else delete body.mapping;
  if (body.slotId === '' || body.slotId === null || body.slotId === undefined) delete body.slotId;
  const postbackMapping = postbackMappingToApi(data, previous);
  if (postbackMapping) body.postbackMapping = postbackMapping;
  else delete body.postbackMapping;
  return body;
}

const SourceCreate = () => (
  <Create redirect="show" transform={(data) => sourceToApi(data, false)}>
    <SourceForm editing={false} />
  </Create>
);

const SourceEdit = () => (
  <Edit
    mutationMode="pessimistic"
    redirect="show"
    transform={(data, options) =>
      sourceToApi(data, Boolean(options?.previousData?.credential), options?.previousData)
    }
  >
    <SourceForm editing />
  </Edit>
);

/** "Run now" (a fetched feed) and "Upload a feed" (any source; the only way for one without an address). */
const RunActions = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const { busy, run: request } = useAdminAction();
  if (!record) return null;
  const run = async (file?: File) => {
    await request(() => dataProvider.requestFeedRun(record.id, file), 'offers.feeds.runQueued');
    if (input.current) input.current.value = '';
  };
  return (
    <TopToolbar>
      {record.url && (
        <Button label="offers.feeds.runNow" disabled={busy} onClick={() => run()}>
          <PlayArrowIcon />
        </Button>
      )}
      <Button label="offers.feeds.upload" disabled={busy} onClick={() => input.current?.click()}>
        <UploadFileIcon />
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={translate('offers.feeds.upload')}
        data-testid="feed-file"
        accept=".csv,.json,.gz,.txt,text/csv,application/json,application/gzip"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void run(file);
        }}
      />
      <RotateSecretButton />
      <EditButton />
    </TopToolbar>
  );
};

/** A new postback secret, after the admin confirms: the network's address stops working until updated. */
const RotateSecretButton = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const [open, setOpen] = useState(false);
  const { busy, run } = useAdminAction();
  if (!record) return null;
  const rotate = async () => {
    await run(() => dataProvider.rotateFeedPostbackSecret(record.id), 'offers.feeds.secretRotated');
    setOpen(false);
  };
  return (
    <>
      <Button label="offers.feeds.rotateSecret" disabled={busy} onClick={() => setOpen(true)}>
        <KeyIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="offers.feeds.rotateSecret"
        content="offers.feeds.rotateConfirm"
        onConfirm={rotate}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

/** The address the network calls, with the source's secret as its token, and what it must send. */
const PostbackField = (_props: { label?: string }) => {
  const record = useRecordContext<FeedSourceRecordAnswer>();
  const translate = useTranslate();
  if (!record?.postbackUrl) return null;
  const { fields, statuses } = record.postbackMapping;
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.feeds.postbackHint')}
      </Typography>
      <Typography
        component="code"
        data-testid="postback-url"
        sx={{ wordBreak: 'break-all', display: 'block' }}
      >
        {record.postbackUrl}
      </Typography>
      <Table
        size="small"
        sx={{ mt: 1, maxWidth: 560 }}
        aria-label={translate('offers.feeds.postbackMapping')}
      >
        <TableBody>
          {FEED_POSTBACK_FIELDS.map((field) => (
            <TableRow key={field}>
              <TableCell component="th" scope="row">
                {translate(`offers.feeds.postbackField.${field}`)}
              </TableCell>
              <TableCell>
                <code>{fields[field] ?? '—'}</code>
              </TableCell>
            </TableRow>
          ))}
          {FEED_POSTBACK_STATUSES.map((status) => (
            <TableRow key={status}>
              <TableCell component="th" scope="row">
                {translate(`offers.feeds.postbackStatus.${status}`)}
              </TableCell>
              <TableCell>{statuses[status].join(', ')}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

export const RunsOfSource = () => (
  <ReferenceManyField
    reference="feed-runs"
    target="sourceId"
    sort={{ field: 'id', order: 'DESC' }}
    label="offers.feeds.runs"
    queryOptions={{ refetchInterval: (query) => whileUnderway(query.state.data?.data) }}
  >
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoRuns />}>
      <NumberField source="id" />
      <StatusField source="status" />
      <FunctionField source="trigger" render={(run) => <TriggerText trigger={run.trigger} />} />
      <DateField source="requestedAt" showTime />
      <DateField source="finishedAt" showTime emptyText="—" />
      <NumberField source="rowsRead" />
      <NumberField source="added" />
      <NumberField source="updated" />
      <NumberField source="ended" />
      <NumberField source="rejected" />
      <NumberField source="waiting" />
    </Datagrid>
  </ReferenceManyField>
);

const NoRuns = () => <span>{useTranslate()('offers.feeds.neverRun')}</span>;
export const TriggerText = ({ trigger }: { trigger: string }) => (
  <span>{useTranslate()(`offers.feeds.trigger.${trigger}`)}</span>
);

export const feedSources = {
  list: () => (
    <List exporter={false} sort={{ field: 'name', order: 'ASC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" />
        <FunctionField source="format" render={(source) => <FormatText format={source.format} />} />
        <ScheduleField source="scheduleMinutes" />
        <LastRunField label="resources.feed-sources.fields.lastRun" />
        <BooleanField source="enabled" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show actions={<RunActions />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <FunctionField source="format" render={(source) => <FormatText format={source.format} />} />
        <TextField source="url" emptyText="—" />
        <ScheduleField source="scheduleMinutes" />
        <FunctionField
          source="credential"
          render={(source) => <CredentialText kind={source.credential?.kind} />}
        />
        <TextField source="slotName" />
        <TextField source="subIdParam" />
        <TextField source="postbackSecret" />
        <PostbackField label="resources.feed-sources.fields.postbackUrl" />
        <BooleanField source="enabled" />
        <RunsOfSource />
      </SimpleShowLayout>
    </Show>
  ),
  create: SourceCreate,
  edit: SourceEdit,
  icon: RssFeedIcon,
  recordRepresentation: 'name',
};

const FormatText = ({ format }: { format: string }) => (
  <span>{useTranslate()(`offers.feeds.format.${format}`)}</span>
);
const CredentialText = ({ kind }: { kind?: string }) => (
  <span>{useTranslate()(kind ? `offers.feeds.credentialSet.${kind}` : 'offers.feeds.noCredential')}</span>
);
