import InventoryIcon from '@mui/icons-material/Inventory2';
import { Button as MuiButton, Stack, Typography } from '@mui/material';
import { PRICE_PATTERN, WEB_ADDRESS_SHAPE } from '@offers/api/rules';
import {
  Create,
  CreateButton,
  Datagrid,
  Edit,
  EditButton,
  ImageField,
  List,
  maxLength,
  minLength,
  ReferenceInput,
  regex,
  required,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { DateField } from '../common/DateField';
import { StatusField } from '../common/StatusField';
import { useSaveOptions } from '../common/savedNotice';
import { ImageUpload } from '../uploads/ImageUpload';

const STATUSES = ['pending', 'approved', 'rejected'];

const productName = [
  required('offers.products.productNameRequired'),
  minLength(3, 'offers.products.productNameShort'),
  maxLength(200),
];
const price = [
  required('offers.products.priceRequired'),
  regex(PRICE_PATTERN, 'offers.products.priceInvalid'),
];
const merchantUrl = regex(WEB_ADDRESS_SHAPE, 'offers.coupon.urlInvalid');

const StatusFilter = () => {
  const translate = useTranslate();
  return (
    <SelectInput
      source="status"
      choices={STATUSES.map((id) => ({ id, name: translate(`offers.status.${id}`) }))}
      alwaysOn
    />
  );
};

const ListActions = () => {
  const translate = useTranslate();
  return (
    <TopToolbar>
      <CreateButton label="offers.products.storeUpload" />
      <MuiButton component={Link} to="/simple-products/create" size="small">
        {translate('offers.products.simpleUpload')}
      </MuiButton>
    </TopToolbar>
  );
};

export const MerchantProductList = () => (
  <List
    actions={<ListActions />}
    // Both uploads stay in reach when there is no product yet.
    empty={false}
    filters={[<SearchInput key="q" source="q" alwaysOn />, <StatusFilter key="status" />]}
    sort={{ field: 'id', order: 'DESC' }}
    exporter={false}
  >
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <ImageField
        source="imageUrl"
        title="productName"
        sortable={false}
        sx={{ '& img': { maxWidth: 100, maxHeight: 70 } }}
      />
      <TextField source="productName" />
      <TextField source="categoryName" sortable={false} emptyText="—" />
      <TextField source="price" />
      <StatusField source="status" />
      <TextField source="rejectionReason" sortable={false} emptyText="—" />
      <TextField source="advisedChanges" sortable={false} emptyText="—" />
      <DateField source="submittedAt" showTime />
      <EditButton />
    </Datagrid>
  </List>
);

/** The store upload: a category of the merchant's, details and up to three image sizes. */
const ProductForm = () => {
  const translate = useTranslate();
  return (
    <SimpleForm>
      <ReferenceInput source="categoryId" reference="merchant-categories" filter={{ isActive: true }}>
        <SelectInput optionText="categoryName" validate={required('offers.products.categoryRequired')} />
      </ReferenceInput>
      <TextInput source="productName" validate={productName} fullWidth />
      <TextInput source="brand" validate={maxLength(100)} />
      <TextInput source="price" validate={price} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      <TextInput source="description" multiline validate={maxLength(2000)} fullWidth />
      <TextInput source="merchantUrl" validate={merchantUrl} fullWidth />
      <Typography variant="body2">{translate('offers.products.imagesHelp')}</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <ImageUpload source="imageSmall" currentSource="images.small" />
        <ImageUpload source="imageMedium" currentSource="images.medium" />
        <ImageUpload source="imageLarge" currentSource="images.large" />
      </Stack>
    </SimpleForm>
  );
};

export const MerchantProductCreate = () => (
  <Create mutationOptions={useSaveOptions('product')}>
    <ProductForm />
  </Create>
);

export const MerchantProductEdit = () => (
  <Edit mutationMode="pessimistic" mutationOptions={useSaveOptions('product')}>
    <ProductForm />
  </Edit>
);

/** The quick upload: name, price, link and one image (all three sizes are made from it). */
export const SimpleProductCreate = () => (
  <Create resource="simple-products" mutationOptions={useSaveOptions('product', () => 'products')}>
    <SimpleForm>
      <TextInput source="productName" validate={productName} fullWidth />
      <TextInput source="price" validate={price} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      <TextInput source="merchantUrl" validate={merchantUrl} fullWidth />
      <ImageUpload source="productImage" isRequired requiredMessage="offers.products.imageRequired" />
    </SimpleForm>
  </Create>
);

export const merchantProducts = {
  list: MerchantProductList,
  create: MerchantProductCreate,
  edit: MerchantProductEdit,
  icon: InventoryIcon,
  recordRepresentation: 'productName',
};

export const simpleProducts = { create: SimpleProductCreate };
