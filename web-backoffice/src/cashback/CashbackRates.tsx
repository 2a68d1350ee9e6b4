import SavingsIcon from '@mui/icons-material/Savings';
import { Box, Button, Typography } from '@mui/material';
import {
  CASHBACK_LANGUAGES,
  CASHBACK_LIMITS,
  CATEGORIES,
  type CashbackChange,
  type CashbackRate,
  type CashbackTexts,
} from '@offers/api/rules';
import {
  ArrayInput,
  AutocompleteInput,
  Datagrid,
  Edit,
  Form,
  FunctionField,
  List,
  maxLength,
  maxValue,
  minValue,
  NumberField,
  NumberInput,
  Pagination,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  regex,
  required,
  SaveButton,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  Toolbar,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { DateField } from '../common/DateField';
import { RateInput, rateText } from './RateInput';

const DATALIST_ID = 'cashback-category-suggestions';

const texts = (value: Partial<CashbackTexts> | undefined): CashbackTexts => ({
  en: value?.en?.trim() ?? '',
  hi: value?.hi?.trim() ?? '',
  te: value?.te?.trim() ?? '',
});

/** What the API takes of the form: the editable fields only, the base under its own name. */
export const cashbackBody = (data: Record<string, unknown>) => {
  const categories = (data.categories as Array<{ name?: string; rate?: CashbackRate }> | undefined) ?? [];
  const cap = typeof data.capRupees === 'string' ? data.capRupees.trim() : '';
  const note = typeof data.note === 'string' ? data.note.trim() : '';
  return {
    base: (data.ownBase as CashbackRate | null | undefined) ?? null,
    categories: categories.map((category) => ({ name: (category.name ?? '').trim(), rate: category.rate })),
    terms: texts(data.terms as Partial<CashbackTexts>),
    exclusions: texts(data.exclusions as Partial<CashbackTexts>),
    confirmDays: Number(data.confirmDays),
    claimWindowDays: Number(data.claimWindowDays),
    capRupees: cap === '' ? null : cap,
    ...(note && { note }),
  };
};

const UpTo = (_props: { label?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  return <span>{rateText(record?.upTo)}</span>;
};

const Base = (_props: { label?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <span>
      {rateText(record.base)}
      {record.baseIsDefault ? ` (${translate('offers.cashback.siteDefault')})` : ''}
    </span>
  );
};

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', hi: 'हिन्दी', te: 'తెలుగు' };

/** A change as a line: what it was and what it became. */
const ChangeSummary = (_props: { label?: string }) => {
  const record = useRecordContext<CashbackChange & { id: number }>();
  const translate = useTranslate();
  if (!record) return null;
  if (record.scope !== 'terms') {
    const { from, to } = record.changes.rate ?? { from: null, to: null };
    return (
      <span>
        {rateText(from as CashbackRate | null)} → {rateText(to as CashbackRate | null)}
      </span>
    );
  }
  return (
    <span>
      {Object.keys(record.changes)
        .map((field) => translate(`resources.cashback-rates.fields.${field}`))
        .join(', ')}
    </span>
  );
};

const What = (_props: { label?: string }) => {
  const record = useRecordContext<CashbackChange & { id: number }>();
  const translate = useTranslate();
  if (!record) return null;
  const scope = translate(`offers.cashback.scope.${record.scope}`);
  if (record.scope === 'category') return <span>{`${scope}: ${record.categoryName}`}</span>;
  if (record.scope === 'coupon') return <span>{`${scope} #${record.couponId}`}</span>;
  return <span>{scope}</span>;
};

const Who = (_props: { label?: string }) => {
  const record = useRecordContext<CashbackChange & { id: number }>();
  const translate = useTranslate();
  if (!record) return null;
  const by = record.adminName ?? '—';
  return <span>{`${by} (${translate(`offers.cashback.origin.${record.origin}`)})`}</span>;
};

/** The store's history, newest first. */
const History = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h6" component="h2">
        {translate('offers.cashback.historyTitle')}
      </Typography>
      <ReferenceManyField
        reference="cashback-changes"
        target="storeId"
        sort={{ field: 'changedAt', order: 'DESC' }}
        perPage={CASHBACK_LIMITS.historyPerPage}
        pagination={<Pagination rowsPerPageOptions={[]} />}
      >
        <Datagrid bulkActionButtons={false} empty={<p>{translate('offers.cashback.noHistory')}</p>}>
          <DateField source="changedAt" showTime sortable={false} />
          <What label="resources.cashback-changes.fields.scope" />
          <ChangeSummary label="resources.cashback-changes.fields.changes" />
          <Who label="resources.cashback-changes.fields.adminName" />
          <TextField source="note" emptyText="—" sortable={false} />
        </Datagrid>
      </ReferenceManyField>
    </Box>
  );
};

/** Removes a coupon's own rate (its store's rates apply again). */
const RemoveCouponRate = (_props: { label?: string }) => {
  const record = useRecordContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  if (!record) return null;
  const remove = async () => {
    try {
      await dataProvider.update('coupon-cashback-rates', {
        id: record.id,
        data: { rate: null },
        previousData: record,
      });
      notify('offers.cashback.couponRateRemoved', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Button size="small" onClick={remove}>
      {translate('offers.cashback.removeCouponRate')}
    </Button>
  );
};

/** Coupons of the store with a rate of their own, and setting one. */
const CouponRates = () => {
  const store = useRecordContext();
  const dataProvider = useDataProvider();
  const translate = useTranslate();
  const { busy, run } = useAdminAction();
  if (!store) return null;
  const save = (values: Record<string, unknown>) =>
    run(
      () =>
        dataProvider.update('coupon-cashback-rates', {
          id: values.couponId as number,
          data: { rate: values.rate },
          previousData: { id: values.couponId as number },
        }),
      'offers.cashback.couponRateSaved',
    );
  return (
    <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h6" component="h2">
        {translate('offers.cashback.couponRatesTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.cashback.couponRatesHint')}
      </Typography>
      <ReferenceManyField reference="coupon-cashback-rates" target="storeId" perPage={100}>
        <Datagrid bulkActionButtons={false} empty={<p>{translate('offers.cashback.noCouponRates')}</p>}>
          <ReferenceField
            source="id"
            reference="coupon-reviews"
            link={false}
            label="resources.coupon-cashback-rates.fields.couponId"
            sortable={false}
          >
            <TextField source="title" />
          </ReferenceField>
          <FunctionField
            label="resources.coupon-cashback-rates.fields.rate"
            render={(record: { rate: CashbackRate }) => rateText(record.rate)}
          />
          <RemoveCouponRate />
        </Datagrid>
      </ReferenceManyField>
      <Form onSubmit={save} record={{}} resource="coupon-cashback-rates">
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mt: 2 }}>
          <ReferenceInput
            source="couponId"
            reference="coupon-reviews"
            filter={{ merchantId: store.id }}
            sort={{ field: 'title', order: 'ASC' }}
            perPage={100}
          >
            <AutocompleteInput
              optionText="title"
              filterToQuery={() => ({})}
              validate={required()}
              sx={{ minWidth: 280 }}
              label="resources.coupon-cashback-rates.fields.couponId"
            />
          </ReferenceInput>
          <RateInput source="rate" label="resources.coupon-cashback-rates.fields.rate" />
          <SaveButton label="offers.cashback.setCouponRate" disabled={busy} alwaysEnable />
        </Box>
      </Form>
    </Box>
  );
};

const StoreName = () => {
  const record = useRecordContext();
  return (
    <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
      {record?.storeName}
    </Typography>
  );
};

/** A store's cashback is changed, never deleted. */
const SaveOnly = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

const textValidators = [maxLength(CASHBACK_LIMITS.termsMaxLength)];
const dayValidators = (limits: { min: number; max: number }, message: string) => [
  required(),
  minValue(limits.min, message),
  maxValue(limits.max, message),
];

const CashbackEdit = () => {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect={false}
      transform={cashbackBody}
      mutationOptions={{
        onSuccess: () => {
          notify('offers.cashback.saved', { type: 'success' });
          refresh();
        },
      }}
    >
      <SimpleForm toolbar={<SaveOnly />}>
        <StoreName />
        <RateInput source="ownBase" label="resources.cashback-rates.fields.base" allowDefault />
        <ArrayInput source="categories">
          <SimpleFormIterator inline disableReordering>
            <TextInput
              source="name"
              label="resources.cashback-rates.fields.name"
              validate={[required(), maxLength(CASHBACK_LIMITS.categoryName.maxLength)]}
              inputProps={{ list: DATALIST_ID }}
              helperText={false}
            />
            <RateInput source="rate" label="resources.cashback-rates.fields.categoryRate" />
          </SimpleFormIterator>
        </ArrayInput>
        <datalist id={DATALIST_ID}>
          {CATEGORIES.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        {CASHBACK_LANGUAGES.map((language) => (
          <TextInput
            key={`terms-${language}`}
            source={`terms.${language}`}
            label={`${translate('resources.cashback-rates.fields.terms')} (${LANGUAGE_NAMES[language]})`}
            multiline
            fullWidth
            validate={textValidators}
          />
        ))}
        {CASHBACK_LANGUAGES.map((language) => (
          <TextInput
            key={`exclusions-${language}`}
            source={`exclusions.${language}`}
            label={`${translate('resources.cashback-rates.fields.exclusions')} (${LANGUAGE_NAMES[language]})`}
            multiline
            fullWidth
            validate={textValidators}
          />
        ))}
        <NumberInput
          source="confirmDays"
          validate={dayValidators(CASHBACK_LIMITS.confirmDays, 'offers.cashback.confirmDaysInvalid')}
          step={1}
        />
        <NumberInput
          source="claimWindowDays"
          validate={dayValidators(CASHBACK_LIMITS.claimWindowDays, 'offers.cashback.claimWindowInvalid')}
          step={1}
        />
        <TextInput
          source="capRupees"
          validate={regex(CASHBACK_LIMITS.rupees, 'offers.cashback.capInvalid')}
          helperText="offers.cashback.capHint"
        />
        <TextInput source="note" validate={maxLength(CASHBACK_LIMITS.noteMaxLength)} fullWidth />
      </SimpleForm>
      <CouponRates />
      <History />
    </Edit>
  );
};

export const cashbackRates = {
  list: () => (
    <List
      exporter={false}
      sort={{ field: 'name', order: 'ASC' }}
      filters={[<TextInput key="q" source="q" label="ra.action.search" alwaysOn />]}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="storeName" sortBy="name" />
        <UpTo label="resources.cashback-rates.fields.upTo" sortable={false} />
        <Base label="resources.cashback-rates.fields.base" sortable={false} />
        <NumberField source="claimWindowDays" sortable={false} />
        <NumberField source="confirmDays" sortable={false} />
        <TextField source="capRupees" emptyText="—" sortable={false} />
        <DateField source="updatedAt" showTime emptyText="—" sortable={false} />
      </Datagrid>
    </List>
  ),
  edit: CashbackEdit,
  icon: SavingsIcon,
};
