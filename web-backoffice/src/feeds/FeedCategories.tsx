import CategoryIcon from '@mui/icons-material/Category';
import {
  Datagrid,
  Edit,
  List,
  ReferenceInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useCategories } from '../merchant-coupons/CouponForm';

const MAPPED_CHOICES = [
  { id: 'false', name: 'offers.advertisers.noCategory' },
  { id: 'true', name: 'offers.advertisers.mapped' },
];

/** A network's category and ours it stands for; "none of ours" sends null. */
const CategoryEdit = () => {
  const notify = useNotify();
  const translate = useTranslate();
  const categories = useCategories();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="list"
      transform={(data) => ({ categoryId: data.categoryId ?? null })}
      mutationOptions={{ onSuccess: () => notify('offers.advertisers.categorySaved', { type: 'success' }) }}
    >
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <TextField source="sourceName" />
        <TextField source="name" />
        <SelectInput
          source="categoryId"
          choices={categories}
          optionText="name"
          emptyText={translate('offers.advertisers.noCategory')}
          parse={(value) => (value === '' ? null : value)}
          isLoading={categories.length === 0}
        />
      </SimpleForm>
    </Edit>
  );
};

export const feedCategories = {
  list: () => (
    <List
      exporter={false}
      sort={{ field: 'name', order: 'ASC' }}
      filters={[
        <ReferenceInput key="sourceId" source="sourceId" reference="feed-sources" alwaysOn>
          <SelectInput optionText="name" />
        </ReferenceInput>,
        <SelectInput key="mapped" source="mapped" choices={MAPPED_CHOICES} alwaysOn />,
        <TextInput key="q" source="q" label="ra.action.search" alwaysOn />,
      ]}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="sourceName" sortable={false} />
        <TextField source="name" />
        <TextField source="categoryName" sortable={false} emptyText="—" />
      </Datagrid>
    </List>
  ),
  edit: CategoryEdit,
  icon: CategoryIcon,
};
