import ViewModuleIcon from '@mui/icons-material/ViewModule';
import {
  Create,
  Datagrid,
  Edit,
  EditButton,
  FormDataConsumer,
  List,
  minValue,
  NumberField,
  NumberInput,
  RadioButtonGroupInput,
  regex,
  required,
  SimpleForm,
  TextField,
  TextInput,
} from 'react-admin';
import { useSaveOptions } from '../common/savedNotice';

const KINDS = [
  { id: 'free', name: 'resources.slots.fields.free' },
  { id: 'paid', name: 'resources.slots.fields.paid' },
];
const RUPEES = /^\d{1,9}(\.\d{1,2})?$/;

const SlotForm = () => (
  <SimpleForm>
    <TextInput source="name" validate={required()} />
    <RadioButtonGroupInput source="kind" choices={KINDS} validate={required()} defaultValue="free" />
    <FormDataConsumer>
      {({ formData }) =>
        formData.kind === 'paid' ? (
          <TextInput source="price" validate={[required(), regex(RUPEES, 'ra.validation.number')]} />
        ) : null
      }
    </FormDataConsumer>
    <NumberInput source="capacity" min={1} step={1} validate={[required(), minValue(1)]} />
  </SimpleForm>
);

/**
 * Free slots have no price, so none is sent (the API refuses a new slot's empty price); a paid
 * slot's price is in rupees with at most two decimals.
 */
const toApi = ({ price, ...data }: Record<string, unknown>) =>
  data.kind === 'paid' ? { ...data, price } : data;

const SlotCreate = () => (
  <Create transform={toApi} mutationOptions={useSaveOptions('slot')}>
    <SlotForm />
  </Create>
);

const SlotEdit = () => (
  <Edit
    mutationMode="pessimistic"
    transform={({ id: _id, ...data }) => toApi(data)}
    mutationOptions={useSaveOptions('slot')}
  >
    <SlotForm />
  </Edit>
);

export const slots = {
  list: () => (
    <List exporter={false} sort={{ field: 'id', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" />
        <TextField source="kind" />
        <TextField source="price" emptyText="—" />
        <NumberField source="capacity" />
        <EditButton />
      </Datagrid>
    </List>
  ),
  create: SlotCreate,
  edit: SlotEdit,
  icon: ViewModuleIcon,
  recordRepresentation: 'name',
};
