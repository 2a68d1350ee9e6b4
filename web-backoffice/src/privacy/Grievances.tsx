import FeedbackIcon from '@mui/icons-material/Feedback';
import { Box, Button, Card, CardContent, Stack, TextField as TextInput, Typography } from '@mui/material';
import type { GrievanceRecord } from '@offers/api/contracts';
import { GRIEVANCE_ANSWER, GRIEVANCE_STATES } from '@offers/api/rules';
import { useId, useState } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useAdminAction } from '../common/adminAction';
import { safeExporter } from '../common/csv';
import { DateField } from '../common/DateField';
import type { OffersDataProvider } from '../providers/dataProvider';

const STATE_CHOICES = GRIEVANCE_STATES.map((state) => ({
  id: state,
  name: `offers.grievances.state.${state}`,
}));

/** "12 days left", "Due today" or "3 days overdue", red once overdue; answered ones owe nothing. */
const Deadline = ({ record }: { record: GrievanceRecord }) => {
  const translate = useTranslate();
  if (record.state === 'answered') return <>{translate('offers.grievances.state.answered')}</>;
  const overdue = record.daysLeft < 0;
  return (
    <Typography
      component="span"
      variant="body2"
      color={overdue ? 'error' : undefined}
      fontWeight={overdue ? 700 : undefined}
    >
      {overdue
        ? translate('offers.grievances.overdue', { smart_count: -record.daysLeft })
        : translate('offers.grievances.daysLeft', { smart_count: record.daysLeft })}
    </Typography>
  );
};

const CategoryText = ({ record }: { record: GrievanceRecord }) => {
  const translate = useTranslate();
  return <>{translate(`offers.grievances.category.${record.category}`, { _: record.category })}</>;
};

/** The answer, mailed to the person in their language; once sent, it cannot be changed. */
const AnswerForm = () => {
  const record = useRecordContext<GrievanceRecord>();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const translate = useTranslate();
  const id = useId();
  const { busy, run } = useAdminAction();
  const [answer, setAnswer] = useState('');
  const [touched, setTouched] = useState(false);
  if (record?.state !== 'open') return null;
  const problem = !answer.trim()
    ? 'offers.grievances.answerRequired'
    : answer.length > GRIEVANCE_ANSWER.answer.maxLength
      ? 'offers.grievances.answerTooLong'
      : undefined;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h2" variant="h6" id={`${id}-title`} gutterBottom>
          {translate('offers.grievances.answerTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('offers.grievances.answerHint', { email: record.email })}
        </Typography>
        <TextInput
          fullWidth
          multiline
          minRows={4}
          margin="dense"
          label={translate('offers.grievances.answer')}
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && !!problem}
          helperText={
            touched && problem ? translate(problem, { max: GRIEVANCE_ANSWER.answer.maxLength }) : ' '
          }
        />
        <Stack direction="row" justifyContent="flex-end">
          <Button
            variant="contained"
            disabled={busy}
            onClick={() => {
              setTouched(true);
              if (!problem)
                void run(
                  () => dataProvider.answerGrievance(record.id, answer.trim()),
                  'offers.grievances.answered',
                );
            }}
          >
            {translate('offers.grievances.send')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** The admins' queue of grievances: the soonest due first, with the days left or overdue. */
export const grievances = {
  icon: FeedbackIcon,
  recordRepresentation: 'reference',
  list: () => (
    <List
      exporter={safeExporter}
      filters={[
        <SearchInput key="q" source="q" alwaysOn />,
        <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
      ]}
      filterDefaultValues={{ state: 'open' }}
      sort={{ field: 'dueAt', order: 'ASC' }}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="reference" sortable={false} />
        <DateField source="dueAt" />
        <FunctionField
          source="daysLeft"
          sortable={false}
          render={(record: GrievanceRecord) => <Deadline record={record} />}
        />
        <FunctionField
          source="category"
          sortable={false}
          render={(record: GrievanceRecord) => <CategoryText record={record} />}
        />
        <TextField source="subject" sortable={false} />
        <TextField source="email" sortable={false} />
        <DateField source="filedAt" showTime />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show>
      <SimpleShowLayout>
        <TextField source="reference" />
        <FunctionField source="state" render={(record: GrievanceRecord) => <Deadline record={record} />} />
        <DateField source="filedAt" showTime />
        <DateField source="dueAt" />
        <TextField source="name" />
        <TextField source="email" />
        <FunctionField
          source="personId"
          render={(record: GrievanceRecord) =>
            record.personKind ? `${record.personKind} #${record.personId}` : '—'
          }
        />
        <FunctionField
          source="category"
          render={(record: GrievanceRecord) => <CategoryText record={record} />}
        />
        <TextField source="language" />
        <TextField source="subject" />
        <TextField source="message" sx={{ whiteSpace: 'pre-wrap' }} />
        <TextField source="answer" emptyText="—" sx={{ whiteSpace: 'pre-wrap' }} />
        <DateField source="answeredAt" showTime emptyText="—" />
        <TextField source="answeredBy" emptyText="—" />
      </SimpleShowLayout>
      <Box sx={{ px: 2, pb: 2 }}>
        <AnswerForm />
      </Box>
    </Show>
  ),
};
