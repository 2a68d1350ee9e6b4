import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  EditButton,
  List,
  NumberField,
  SaveButton,
  SearchInput,
  SelectInput,
  TextField,
  Toolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateField } from '../common/DateField';
import { StatusField } from '../common/StatusField';
import { useSaveOptions } from '../common/savedNotice';
import { CouponForm } from './CouponForm';

const STATUSES = ['pending', 'live', 'rejected', 'expired', 'withdrawn'];

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

/** Editing is for pending coupons only; the API refuses the rest with 409. */
const PendingEditButton = () => {
  const record = useRecordContext();
  return record?.status === 'pending' ? <EditButton /> : null;
};

export const MerchantCouponList = () => (
  <List
    filters={[<SearchInput key="q" source="q" alwaysOn />, <StatusFilter key="status" />]}
    sort={{ field: 'id', order: 'DESC' }}
    exporter={false}
  >
    <Datagrid rowClick={false} bulkActionButtons={false}>
      <TextField source="title" />
      <TextField source="couponCode" sortable={false} />
      <StatusField source="status" />
      <TextField source="rejectionReason" sortable={false} emptyText="—" />
      <NumberField source="clicks" sortable={false} />
      <NumberField source="votes" sortable={false} />
      <NumberField source="successRate" sortable={false} emptyText="—" />
      <DateField source="expiryDate" />
      <DateField source="submittedAt" showTime />
      <PendingEditButton />
    </Datagrid>
  </List>
);

export const MerchantCouponCreate = () => (
  <Create mutationOptions={useSaveOptions('coupon')}>
    <CouponForm />
  </Create>
);

const EditToolbar = () => {
  const record = useRecordContext();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton disabled={record?.status !== 'pending'} />
      {(record?.status === 'pending' || record?.status === 'live') && (
        <DeleteButton
          label="offers.coupon.withdraw"
          mutationMode="pessimistic"
          confirmTitle="offers.coupon.withdrawTitle"
          confirmContent="offers.coupon.withdrawContent"
        />
      )}
    </Toolbar>
  );
};

export const MerchantCouponEdit = () => (
  <Edit mutationMode="pessimistic" mutationOptions={useSaveOptions('coupon')}>
    <CouponForm toolbar={<EditToolbar />} />
  </Edit>
);

export const merchantCoupons = {
  list: MerchantCouponList,
  create: MerchantCouponCreate,
  edit: MerchantCouponEdit,
  icon: LocalOfferIcon,
  recordRepresentation: 'title',
};
