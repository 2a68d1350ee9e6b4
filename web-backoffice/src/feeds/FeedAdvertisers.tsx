import StorefrontIcon from '@mui/icons-material/Storefront';
import { Box, Typography } from '@mui/material';
import { FEED_ADVERTISER_LIMITS } from '@offers/api/rules';
import {
  AutocompleteInput,
  Datagrid,
  Edit,
  Form,
  List,
  maxLength,
  NumberField,
  ReferenceField,
  ReferenceInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  UrlField,
  useDataProvider,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import type { OffersDataProvider } from '../providers/dataProvider';
import { ImageUpload } from '../uploads/ImageUpload';

const MAPPED_CHOICES = [
  { id: 'false', name: 'offers.advertisers.waiting' },
  { id: 'true', name: 'offers.advertisers.mapped' },
];

const StoreOrWaiting = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return <span>{record.merchantId ? record.storeName : translate('offers.advertisers.waiting')}</span>;
};

/** Creates a store without an account for the advertiser (name, site, logo) and maps it. */
const CreateStoreForm = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const { busy, run } = useAdminAction();
  if (!record || record.merchantId) return null;
  const create = (values: Record<string, unknown>) =>
    run(
      () =>
        dataProvider.createAdvertiserStore(record.id, {
          name: String(values.storeNameNew ?? ''),
          siteUrl: String(values.siteUrl ?? ''),
          logo: (values.logo as { rawFile?: File } | undefined)?.rawFile,
        }),
      'offers.advertisers.createdNotice',
    );
  return (
    <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h6" component="h2">
        {translate('offers.advertisers.createTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.advertisers.createHint')}
      </Typography>
      <Form
        onSubmit={create}
        record={{ storeNameNew: record.name ?? '', siteUrl: record.siteUrl ?? '' }}
        resource="feed-advertisers"
      >
        <TextInput
          source="storeNameNew"
          validate={[required(), maxLength(FEED_ADVERTISER_LIMITS.storeNameMaxLength)]}
          fullWidth
        />
        <TextInput
          source="siteUrl"
          type="url"
          validate={[required(), maxLength(FEED_ADVERTISER_LIMITS.siteUrlMaxLength)]}
          fullWidth
        />
        <ImageUpload source="logo" currentSource="logoUrl" />
        <SaveButton label="offers.advertisers.create" disabled={busy} alwaysEnable />
      </Form>
    </Box>
  );
};

/** Gives a store without an account to the registered merchant who claims it. */
const ClaimForm = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const { busy, run } = useAdminAction();
  if (!record?.merchantId || !record.storeWithoutAccount) return null;
  const claim = (values: Record<string, unknown>) =>
    run(
      () => dataProvider.claimStore(record.merchantId, values.claimantId as number),
      'offers.advertisers.claimedNotice',
    );
  return (
    <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h6" component="h2">
        {translate('offers.advertisers.claimTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.advertisers.claimHint')}
      </Typography>
      <Form onSubmit={claim} record={{}} resource="feed-advertisers">
        <ReferenceInput source="claimantId" reference="stores" filter={{ withoutAccount: false }}>
          <AutocompleteInput
            optionText="name"
            filterToQuery={(q) => ({ q })}
            validate={required()}
            sx={{ minWidth: 320 }}
          />
        </ReferenceInput>
        <SaveButton label="offers.advertisers.claim" disabled={busy} alwaysEnable />
      </Form>
    </Box>
  );
};

const MapToolbar = () => (
  <Toolbar>
    <SaveButton label="offers.advertisers.map" />
  </Toolbar>
);

/** Maps the advertiser to an existing store, chosen by name (Edit's save: PUT with `merchantId`). */
const MapForm = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
        {translate('offers.advertisers.mapTitle')}
      </Typography>
      <SimpleForm toolbar={<MapToolbar />}>
        <ReferenceInput source="merchantId" reference="stores" sort={{ field: 'name', order: 'ASC' }}>
          <AutocompleteInput
            optionText="name"
            filterToQuery={(q) => ({ q })}
            validate={required()}
            sx={{ minWidth: 320 }}
          />
        </ReferenceInput>
      </SimpleForm>
    </Box>
  );
};

const AdvertiserEdit = () => {
  const notify = useNotify();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect={false}
      transform={(data) => ({ merchantId: data.merchantId })}
      mutationOptions={{ onSuccess: () => notify('offers.advertisers.mappedNotice', { type: 'success' }) }}
    >
      <SimpleShowLayout>
        <ReferenceField source="sourceId" reference="feed-sources" link="show" />
        <TextField source="advertiserId" />
        <TextField source="name" emptyText="—" />
        <UrlField source="siteUrl" emptyText="—" />
        <NumberField source="rowsWaiting" />
        <StoreOrWaiting source="storeName" />
      </SimpleShowLayout>
      <MapForm />
      <CreateStoreForm />
      <ClaimForm />
    </Edit>
  );
};

export const feedAdvertisers = {
  list: () => (
    <List
      exporter={false}
      sort={{ field: 'lastSeenAt', order: 'DESC' }}
      filterDefaultValues={{ mapped: 'false' }}
      filters={[
        <SelectInput key="mapped" source="mapped" choices={MAPPED_CHOICES} alwaysOn />,
        <TextInput key="q" source="q" label="ra.action.search" alwaysOn />,
        <ReferenceInput key="sourceId" source="sourceId" reference="feed-sources">
          <SelectInput optionText="name" />
        </ReferenceInput>,
      ]}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="sourceName" sortable={false} />
        <TextField source="advertiserId" sortable={false} />
        <TextField source="name" emptyText="—" />
        <TextField source="siteUrl" emptyText="—" sortable={false} />
        <NumberField source="rowsWaiting" />
        <StoreOrWaiting source="storeName" sortable={false} />
        <DateField source="lastSeenAt" showTime />
      </Datagrid>
    </List>
  ),
  edit: AdvertiserEdit,
  icon: StorefrontIcon,
};
