import HistoryIcon from '@mui/icons-material/History';
import type { DataRequestLogEntry } from '@offers/api/contracts';
import { DATA_REQUEST_KINDS } from '@offers/api/rules';
import { Datagrid, FunctionField, List, SelectInput, TextField, useTranslate } from 'react-admin';
import { safeExporter } from '../common/csv';
import { DateField } from '../common/DateField';

const KIND_CHOICES = DATA_REQUEST_KINDS.map((kind) => ({
  id: kind,
  name: `offers.dataRequests.kind.${kind}`,
}));

/** Who acted: the person (their account), an admin by name, or the system (a scheduled job). */
const Actor = ({ record }: { record: DataRequestLogEntry }) => {
  const translate = useTranslate();
  if (record.actedBy === 'admin')
    return <>{translate('offers.dataRequests.admin', { name: record.adminName ?? `#${record.adminId}` })}</>;
  return <>{translate(`offers.dataRequests.actor.${record.actedBy}`)}</>;
};

const Person = ({ record }: { record: DataRequestLogEntry }) => {
  const translate = useTranslate();
  return record.personKind ? (
    <>
      {translate(`offers.dataRequests.personKind.${record.personKind}`)} #{record.personId}
    </>
  ) : (
    <>—</>
  );
};

/** The log of data requests (exports, deletions, grievances): every step, who took it and when. */
export const dataRequests = {
  icon: HistoryIcon,
  list: () => (
    <List
      exporter={safeExporter}
      filters={[<SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />]}
      sort={{ field: 'actedAt', order: 'DESC' }}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <DateField source="actedAt" showTime />
        <FunctionField
          source="kind"
          sortable={false}
          render={(record: DataRequestLogEntry) => <KindText kind={record.kind} />}
        />
        <TextField source="action" sortable={false} />
        <FunctionField
          source="personId"
          sortable={false}
          render={(record: DataRequestLogEntry) => <Person record={record} />}
        />
        <FunctionField
          source="actedBy"
          sortable={false}
          render={(record: DataRequestLogEntry) => <Actor record={record} />}
        />
        <TextField source="reference" sortable={false} emptyText="—" />
      </Datagrid>
    </List>
  ),
};

const KindText = ({ kind }: { kind: string }) => {
  const translate = useTranslate();
  return <>{translate(`offers.dataRequests.kind.${kind}`, { _: kind })}</>;
};
