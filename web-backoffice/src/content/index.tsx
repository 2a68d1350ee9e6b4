import CampaignIcon from '@mui/icons-material/Campaign';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ImageIcon from '@mui/icons-material/Image';
import StarIcon from '@mui/icons-material/Star';
import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import { BANNER_POSITIONS, CONTENT_LIMITS, FLASH_CONTENT_TYPES, SEASONAL_OFFER_SLOTS } from '@offers/rules';
import type { ReactNode } from 'react';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DeleteButton,
  Edit,
  EditButton,
  FunctionField,
  ImageField,
  List,
  maxLength,
  maxValue,
  minValue,
  NumberField,
  NumberInput,
  regex,
  required,
  SaveButton,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useTranslate,
} from 'react-admin';
import { ImageUpload } from '../uploads/ImageUpload';

const URL_PATTERN = /^(https?:\/\/)?[^\s/$.?#].[^\s]*$/i;
const merchantUrl = (isRequired: boolean) =>
  isRequired
    ? [required(), regex(URL_PATTERN, 'offers.coupon.urlInvalid')]
    : [regex(URL_PATTERN, 'offers.coupon.urlInvalid')];
const order = [minValue(0), maxValue(CONTENT_LIMITS.maxSortOrder)];
const choices = (values: readonly (string | number)[]) => values.map((id) => ({ id, name: String(id) }));

const Thumbnail = () => (
  <ImageField
    source="imageUrl"
    sortable={false}
    title="merchantUrl"
    sx={{ '& img': { maxWidth: 160, maxHeight: 90 } }}
  />
);

/** Content edits save only when the server answers: its errors land on the fields. */
const contentEdit = (form: ReactNode) => () => <Edit mutationMode="pessimistic">{form}</Edit>;
const contentCreate = (form: ReactNode) => () => <Create redirect="list">{form}</Create>;

// Hero images -------------------------------------------------------------------------------
const HeroForm = ({ isCreate }: { isCreate?: boolean }) => (
  <SimpleForm>
    <ImageUpload source="image" isRequired={isCreate} />
    <TextInput source="merchantUrl" validate={merchantUrl(true)} fullWidth />
    <NumberInput source="sortOrder" defaultValue={0} step={1} validate={order} />
    <BooleanInput source="isActive" defaultValue />
  </SimpleForm>
);
export const heroes = {
  icon: ViewCarouselIcon,
  list: () => (
    <List sort={{ field: 'sortOrder', order: 'ASC' }} exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <Thumbnail />
        <TextField source="merchantUrl" />
        <NumberField source="sortOrder" />
        <BooleanField source="isActive" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: contentCreate(<HeroForm isCreate />),
  edit: contentEdit(<HeroForm />),
};

// Banners by position -----------------------------------------------------------------------
const BannerForm = ({ isCreate }: { isCreate?: boolean }) => (
  <SimpleForm>
    <ImageUpload source="image" isRequired={isCreate} />
    <SelectInput source="position" choices={choices(BANNER_POSITIONS)} validate={required()} />
    <TextInput source="merchantUrl" validate={merchantUrl(true)} fullWidth />
    <NumberInput source="sortOrder" defaultValue={0} step={1} validate={order} />
    <BooleanInput source="isActive" defaultValue />
  </SimpleForm>
);
export const banners = {
  icon: ImageIcon,
  list: () => (
    <List
      sort={{ field: 'position', order: 'ASC' }}
      filters={[
        <SelectInput key="position" source="position" choices={choices(BANNER_POSITIONS)} alwaysOn />,
      ]}
      exporter={false}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <Thumbnail />
        <TextField source="position" />
        <TextField source="merchantUrl" />
        <NumberField source="sortOrder" />
        <BooleanField source="isActive" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: contentCreate(<BannerForm isCreate />),
  edit: contentEdit(<BannerForm />),
};

// Seasonal offers: four fixed slots, edited in place ------------------------------------------
const SeasonalToolbar = () => (
  <Toolbar sx={{ justifyContent: 'space-between' }}>
    <SaveButton />
    <DeleteButton mutationMode="pessimistic" />
  </Toolbar>
);
const EmptySlot = () => {
  const translate = useTranslate();
  return (
    <FunctionField
      label="resources.seasonal-offers.fields.imageUrl"
      render={(record) =>
        record.imageUrl ? (
          <img
            src={`${record.imageUrl}?w=160`}
            alt={record.merchantUrl ?? ''}
            style={{ maxWidth: 160, maxHeight: 90 }}
          />
        ) : (
          translate('offers.content.emptySlot')
        )
      }
    />
  );
};
export const seasonalOffers = {
  icon: StarIcon,
  list: () => (
    <List pagination={false} exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <SelectField source="slot" choices={choices(SEASONAL_OFFER_SLOTS)} sortable={false} />
        <EmptySlot />
        <TextField source="merchantUrl" sortable={false} emptyText="—" />
        <DateField source="updatedAt" showTime sortable={false} emptyText="—" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  edit: contentEdit(
    <SimpleForm toolbar={<SeasonalToolbar />}>
      <ImageUpload source="image" />
      <TextInput source="merchantUrl" validate={merchantUrl(true)} fullWidth />
    </SimpleForm>,
  ),
};

// Flash text --------------------------------------------------------------------------------
const FlashForm = () => (
  <SimpleForm>
    <TextInput
      source="text"
      multiline
      fullWidth
      validate={[required(), maxLength(CONTENT_LIMITS.flashTextMaxLength)]}
    />
    <SelectInput
      source="contentType"
      choices={choices(FLASH_CONTENT_TYPES)}
      defaultValue="text"
      validate={required()}
    />
    <TextInput
      source="position"
      defaultValue="toFlash"
      validate={[required(), maxLength(CONTENT_LIMITS.positionMaxLength)]}
    />
    <TextInput source="merchantUrl" validate={merchantUrl(false)} fullWidth />
    <ImageUpload source="image" />
    <BooleanInput source="isActive" defaultValue />
  </SimpleForm>
);
export const flashTexts = {
  icon: FlashOnIcon,
  list: () => (
    <List exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="text" />
        <TextField source="contentType" />
        <TextField source="position" />
        <BooleanField source="isActive" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: contentCreate(<FlashForm />),
  edit: contentEdit(<FlashForm />),
};

// Best-offer banner -------------------------------------------------------------------------
const BestOfferForm = ({ isCreate }: { isCreate?: boolean }) => (
  <SimpleForm>
    <ImageUpload source="image" isRequired={isCreate} requiredMessage="offers.upload.imageRequired" />
    <TextInput source="merchantUrl" validate={merchantUrl(true)} fullWidth />
    <TextInput source="name" defaultValue="Bo" validate={maxLength(CONTENT_LIMITS.nameMaxLength)} />
    <TextInput source="type" defaultValue="Bo" validate={maxLength(CONTENT_LIMITS.nameMaxLength)} />
    <TextInput source="frame" defaultValue="Bo" validate={maxLength(CONTENT_LIMITS.nameMaxLength)} />
    <BooleanInput source="isActive" defaultValue />
  </SimpleForm>
);
export const bestOfferBanners = {
  icon: CampaignIcon,
  list: () => (
    <List exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <Thumbnail />
        <TextField source="name" />
        <TextField source="merchantUrl" />
        <BooleanField source="isActive" />
        <DateField source="uploadedAt" showTime />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: contentCreate(<BestOfferForm isCreate />),
  edit: contentEdit(<BestOfferForm />),
};
