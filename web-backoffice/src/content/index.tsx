import CampaignIcon from '@mui/icons-material/Campaign';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ImageIcon from '@mui/icons-material/Image';
import StarIcon from '@mui/icons-material/Star';
import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import { Box } from '@mui/material';
import {
  BANNER_POSITIONS,
  CONTENT_LIMITS,
  FLASH_CONTENT_TYPES,
  SEASONAL_OFFER_SLOTS,
  SITE_LANGUAGES,
  type Translated,
  textIn,
  translatedField,
  WEB_ADDRESS_SHAPE_ANY_SCHEME,
} from '@offers/api/rules';
import type { ReactNode } from 'react';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
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
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { ImageUpload } from '../uploads/ImageUpload';

const merchantUrl = (isRequired: boolean) =>
  isRequired
    ? [required(), regex(WEB_ADDRESS_SHAPE_ANY_SCHEME, 'offers.coupon.urlInvalid')]
    : [regex(WEB_ADDRESS_SHAPE_ANY_SCHEME, 'offers.coupon.urlInvalid')];
const order = [minValue(0), maxValue(CONTENT_LIMITS.maxSortOrder)];
const choices = (values: readonly (string | number)[]) => values.map((id) => ({ id, name: String(id) }));
/** Codes the API keeps (cat, Tc, ...) shown by their names, in the back-office's language. */
const named = (values: readonly string[], group: string) =>
  values.map((id) => ({ id, name: `offers.content.${group}.${id}` }));
const positionChoices = named(BANNER_POSITIONS, 'positions');

type TextName = 'title' | 'altText' | 'text' | 'name';

/**
 * A text the home page shows, in English (required: shown wherever a translation is missing),
 * Hindi and Telugu (optional), side by side on a wide screen. An emptied translation is sent as
 * '' so that it is cleared, also in a multipart form.
 */
const TranslatedInputs = ({
  source,
  maxLength: longest,
  required: isRequired = true,
  multiline,
  hint,
}: {
  source: TextName;
  maxLength: number;
  required?: boolean;
  multiline?: boolean;
  hint?: string;
}) => {
  const translate = useTranslate();
  return (
    <Box
      sx={{
        width: '100%',
        display: 'grid',
        columnGap: 2,
        gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' },
      }}
    >
      {SITE_LANGUAGES.map((lang) => (
        <TextInput
          key={lang}
          source={translatedField(source, lang)}
          label={translate('offers.content.inLanguage', {
            text: translate(`offers.content.texts.${source}`),
            language: translate(`offers.content.languages.${lang}`),
          })}
          validate={lang === 'en' && isRequired ? [required(), maxLength(longest)] : [maxLength(longest)]}
          parse={lang === 'en' ? undefined : (value: string) => value}
          helperText={lang === 'en' ? (hint ?? false) : 'offers.content.hints.translation'}
          multiline={multiline}
          fullWidth
          slotProps={{ htmlInput: { lang } }}
        />
      ))}
    </Box>
  );
};

/** A picture's title and alt text in the three languages. */
const PictureTexts = () => (
  <>
    <TranslatedInputs
      source="title"
      maxLength={CONTENT_LIMITS.titleMaxLength}
      hint="offers.content.hints.title"
    />
    <TranslatedInputs
      source="altText"
      maxLength={CONTENT_LIMITS.altTextMaxLength}
      hint="offers.content.hints.altText"
    />
  </>
);

/** A list's text in the back-office's language, English where it has no translation. */
const TranslatedField = ({ source }: { source: TextName; label?: string; sortable?: boolean }) => {
  const record = useRecordContext<Translated<TextName> & { id: number }>();
  const [locale] = useLocaleState();
  const lang = SITE_LANGUAGES.find((code) => code === locale) ?? 'en';
  return <span>{textIn(record, source, lang) || '—'}</span>;
};

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
    <PictureTexts />
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
        <TranslatedField source="title" label="offers.content.texts.title" sortable={false} />
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
    <SelectInput source="position" choices={positionChoices} validate={required()} />
    <PictureTexts />
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
      filters={[<SelectInput key="position" source="position" choices={positionChoices} alwaysOn />]}
      exporter={false}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <Thumbnail />
        <SelectField source="position" choices={positionChoices} />
        <TranslatedField source="title" label="offers.content.texts.title" sortable={false} />
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
        <TranslatedField source="title" label="offers.content.texts.title" sortable={false} />
        <TextField source="merchantUrl" sortable={false} emptyText="—" />
        <DateField source="updatedAt" showTime sortable={false} emptyText="—" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  edit: contentEdit(
    <SimpleForm toolbar={<SeasonalToolbar />}>
      <ImageUpload source="image" />
      <PictureTexts />
      <TextInput source="merchantUrl" validate={merchantUrl(true)} fullWidth />
    </SimpleForm>,
  ),
};

// Flash text --------------------------------------------------------------------------------
const FlashForm = () => (
  <SimpleForm>
    <TranslatedInputs source="text" maxLength={CONTENT_LIMITS.flashTextMaxLength} multiline />
    <SelectInput
      source="contentType"
      choices={named(FLASH_CONTENT_TYPES, 'contentTypes')}
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
        <TranslatedField source="text" label="resources.flash-texts.fields.text" sortable={false} />
        <SelectField source="contentType" choices={named(FLASH_CONTENT_TYPES, 'contentTypes')} />
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
    <TranslatedInputs
      source="name"
      maxLength={CONTENT_LIMITS.nameMaxLength}
      hint="offers.content.hints.name"
    />
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
        <TranslatedField source="name" label="resources.best-offer-banners.fields.name" />
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
