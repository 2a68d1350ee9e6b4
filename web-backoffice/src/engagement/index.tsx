import DoneIcon from '@mui/icons-material/Done';
import EmailIcon from '@mui/icons-material/Email';
import MarkunreadMailboxIcon from '@mui/icons-material/MarkunreadMailbox';
import PeopleIcon from '@mui/icons-material/People';
import SendIcon from '@mui/icons-material/Send';
import { Box, LinearProgress, Typography } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  Button,
  Confirm,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  maxLength,
  NullableBooleanInput,
  type RaRecord,
  required,
  SearchInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { safeExporter } from '../common/csv';
import { DateField } from '../common/DateField';
import { useSaveOptions } from '../common/savedNotice';
import type { OffersDataProvider } from '../providers/dataProvider';

const choices = (prefix: string, values: string[]) => values.map((id) => ({ id, name: `${prefix}.${id}` }));

// Subscribers -------------------------------------------------------------------------------
export const subscribers = {
  icon: PeopleIcon,
  list: () => (
    <List
      exporter={safeExporter}
      filters={[
        <SearchInput key="q" source="q" alwaysOn />,
        <SelectInput
          key="status"
          source="status"
          choices={choices('offers.subscribers', ['pending', 'confirmed', 'unsubscribed'])}
        />,
        <SelectInput
          key="language"
          source="language"
          choices={[
            { id: 'en', name: 'English' },
            { id: 'hi', name: 'हिन्दी' },
            { id: 'te', name: 'తెలుగు' },
          ]}
        />,
      ]}
      sort={{ field: 'createdAt', order: 'DESC' }}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <TextField source="email" />
        <TextField source="language" sortable={false} />
        <FunctionField source="status" render={(record) => <StatusText value={record.status} />} />
        <DateField source="confirmedAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  ),
};

const StatusText = ({ value }: { value: string }) => {
  const translate = useTranslate();
  return <>{translate(`offers.subscribers.${value}`, { _: value })}</>;
};

// Campaigns ---------------------------------------------------------------------------------

/** Sent (and skipped) of all recipients, followed live while the campaign is sending. */
export const CampaignProgress = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const { data } = useGetOne(
    'campaigns',
    { id: record?.id },
    { enabled: record?.status === 'sending', refetchInterval: 2000 },
  );
  const campaign = (record?.status === 'sending' && data) || record;
  if (!campaign || campaign.status === 'draft') return null;
  const done = (campaign.sentCount ?? 0) + (campaign.skippedCount ?? 0);
  const total = campaign.recipientsTotal ?? 0;
  const percent = total > 0 ? Math.round((done / total) * 100) : 100;
  const text = translate('offers.campaigns.progress', { sent: campaign.sentCount ?? 0, total, percent });
  return (
    <Box sx={{ minWidth: 160 }} role="status" aria-live="polite">
      <LinearProgress variant="determinate" value={percent} aria-label={text} />
      <Typography variant="caption">{text}</Typography>
    </Box>
  );
};

const SendCampaignButton = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  if (record?.status !== 'draft') return null;
  return (
    <>
      <Button
        label={sending ? 'offers.review.processing' : 'offers.campaigns.send'}
        disabled={sending}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        <SendIcon />
      </Button>
      <Confirm
        isOpen={open}
        title={translate('offers.campaigns.sendTitle', { subject: record.subject })}
        content="offers.campaigns.sendConfirm"
        confirm="offers.campaigns.send"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setOpen(false);
          setSending(true);
          try {
            await dataProvider.sendCampaign(record.id);
            notify('offers.campaigns.started', { type: 'success' });
            refresh();
          } catch (error) {
            notify((error as Error).message, { type: 'error' });
          } finally {
            setSending(false);
          }
        }}
      />
    </>
  );
};

const CampaignForm = () => (
  <SimpleForm>
    <TextInput source="subject" validate={[required(), maxLength(200)]} fullWidth />
    <TextInput source="body" multiline minRows={6} validate={[required(), maxLength(20_000)]} fullWidth />
  </SimpleForm>
);

const isDraft = (record: RaRecord) => record.status === 'draft';

const CampaignCreate = () => (
  <Create mutationOptions={useSaveOptions('campaign')}>
    <CampaignForm />
  </Create>
);

const CampaignEdit = () => (
  <Edit mutationMode="pessimistic" mutationOptions={useSaveOptions('campaign')}>
    <CampaignForm />
  </Edit>
);

export const campaigns = {
  icon: EmailIcon,
  recordRepresentation: 'subject',
  list: () => (
    <List
      exporter={safeExporter}
      filters={[
        <SearchInput key="q" source="q" alwaysOn />,
        <SelectInput
          key="status"
          source="status"
          choices={choices('offers.campaigns', ['draft', 'sending', 'sent'])}
        />,
      ]}
      sort={{ field: 'createdAt', order: 'DESC' }}
    >
      <Datagrid
        rowClick={(_id, _resource, record) => (isDraft(record) ? 'edit' : false)}
        bulkActionButtons={false}
      >
        <TextField source="subject" />
        <FunctionField source="status" render={(record) => <CampaignStatus value={record.status} />} />
        <CampaignProgress />
        <DateField source="sentAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
        <SendCampaignButton />
      </Datagrid>
    </List>
  ),
  create: CampaignCreate,
  edit: CampaignEdit,
};

const CampaignStatus = ({ value }: { value: string }) => {
  const translate = useTranslate();
  return <>{translate(`offers.campaigns.${value}`, { _: value })}</>;
};

// Contact messages --------------------------------------------------------------------------
const MarkHandledButton = () => {
  const record = useRecordContext();
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  if (!record || record.handled) return null;
  return (
    <Button
      label="offers.contact.markHandled"
      disabled={isPending}
      onClick={(event) => {
        event.stopPropagation();
        update(
          'contact-messages',
          { id: record.id, data: { handled: true }, previousData: record },
          {
            mutationMode: 'pessimistic',
            onSuccess: () => notify('offers.contact.handled', { type: 'success' }),
            onError: (error) => notify((error as Error).message, { type: 'error' }),
          },
        );
      }}
    >
      <DoneIcon />
    </Button>
  );
};

export const contactMessages = {
  icon: MarkunreadMailboxIcon,
  list: () => (
    <List
      exporter={safeExporter}
      filters={[
        <SearchInput key="q" source="q" alwaysOn />,
        <NullableBooleanInput key="handled" source="handled" alwaysOn />,
      ]}
      filterDefaultValues={{ handled: false }}
      sort={{ field: 'receivedAt', order: 'DESC' }}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <DateField source="receivedAt" showTime />
        <TextField source="name" />
        <TextField source="email" />
        <TextField source="mobile" sortable={false} emptyText="—" />
        <TextField source="msg" sortable={false} />
        <BooleanField source="handled" />
        <MarkHandledButton />
      </Datagrid>
    </List>
  ),
};

// Development mailbox -----------------------------------------------------------------------
export const devMailbox = {
  icon: EmailIcon,
  list: () => (
    <List
      exporter={safeExporter}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'date', order: 'DESC' }}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="date" showTime />
        <TextField source="to" />
        <TextField source="subject" />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show>
      <SimpleShowLayout>
        <DateField source="date" showTime />
        <TextField source="from" />
        <TextField source="to" />
        <TextField source="subject" />
        <FunctionField
          source="html"
          render={(record) =>
            record.html ? (
              // Mail HTML shown in a sandbox: no scripts, no access to the back-office.
              <iframe
                title={record.subject}
                sandbox=""
                srcDoc={record.html}
                style={{ width: '100%', minHeight: 480, border: '1px solid #ccc' }}
              />
            ) : (
              <Typography component="pre" sx={{ whiteSpace: 'pre-wrap' }}>
                {record.text}
              </Typography>
            )
          }
        />
      </SimpleShowLayout>
    </Show>
  ),
};
