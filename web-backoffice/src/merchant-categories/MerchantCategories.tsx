import CategoryIcon from '@mui/icons-material/Category';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  EditButton,
  List,
  maxLength,
  NumberField,
  required,
  SimpleForm,
  TextField,
  TextInput,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { useSaveOptions } from '../common/savedNotice';

const CategoryForm = () => (
  <SimpleForm>
    <TextInput
      source="categoryName"
      validate={[required('offers.categories.nameRequired'), maxLength(100, 'offers.categories.nameLong')]}
      fullWidth
    />
    <TextInput source="description" multiline validate={maxLength(500)} fullWidth />
    {/* Deactivating hides the category and its products from the store page; nothing is lost. */}
    <BooleanInput source="isActive" defaultValue />
  </SimpleForm>
);

const CategoryCreate = () => (
  <Create mutationOptions={useSaveOptions('category')}>
    <CategoryForm />
  </Create>
);

const CategoryEdit = () => (
  <Edit mutationMode="pessimistic" mutationOptions={useSaveOptions('category')}>
    <CategoryForm />
  </Edit>
);

export const merchantCategories = {
  icon: CategoryIcon,
  recordRepresentation: 'categoryName',
  list: () => (
    <List sort={{ field: 'categoryName', order: 'ASC' }} exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="categoryName" />
        <TextField source="description" sortable={false} emptyText="—" />
        <BooleanField source="isActive" />
        <NumberField source="productCount" sortable={false} />
        <DateField source="createdAt" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: CategoryCreate,
  edit: CategoryEdit,
};
