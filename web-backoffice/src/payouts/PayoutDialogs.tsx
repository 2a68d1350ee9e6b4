import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { PAYOUT_RULES } from '@offers/api/rules';
import { useEffect, useId, useState } from 'react';
import { type RaRecord, useTranslate } from 'react-admin';
import { payoutSummary } from './payoutText';

/** Why a bank reference cannot be sent, as a translation key; undefined when it can. */
function referenceProblem(reference: string, others: string[]): string | undefined {
  const text = reference.trim();
  if (!text) return 'offers.payouts.bankReferenceRequired';
  if (!PAYOUT_RULES.bankReference.test(text)) return 'offers.payouts.bankReferenceInvalid';
  if (others.some((other) => other.trim().toUpperCase() === text.toUpperCase())) {
    return 'offers.payouts.bankReferenceRepeated';
  }
  return undefined;
}

/**
 * Asks the reference of each transfer that paid the payouts (one field per payout), then marks
 * them paid. Payouts not in processing are named and left out: they cannot be paid yet.
 */
export const BankReferenceDialog = ({
  open,
  title,
  payouts,
  skipped = 0,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  payouts: RaRecord[];
  /** Chosen payouts that are not in processing. */
  skipped?: number;
  onConfirm: (references: Array<{ id: number; bankReference: string }>) => void;
  onCancel: () => void;
}) => {
  const translate = useTranslate();
  const id = useId();
  const [references, setReferences] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setReferences({});
      setTouched(false);
    }
  }, [open]);

  const referenceOf = (record: RaRecord) => references[String(record.id)] ?? '';
  const problems = payouts.map((record) =>
    referenceProblem(referenceOf(record), payouts.filter((other) => other.id !== record.id).map(referenceOf)),
  );
  const submit = () => {
    setTouched(true);
    if (payouts.length === 0 || problems.some(Boolean)) return;
    onConfirm(
      payouts.map((record) => ({ id: Number(record.id), bankReference: referenceOf(record).trim() })),
    );
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('offers.payouts.payHelp')}</DialogContentText>
          {skipped > 0 && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('offers.payouts.onlyProcessing', { smart_count: skipped })}
            </Alert>
          )}
          {payouts.map((record, index) => (
            <TextField
              key={record.id}
              autoFocus={index === 0}
              required
              fullWidth
              margin="dense"
              name={`bankReference-${record.id}`}
              label={translate('offers.payouts.bankReferenceFor', {
                payout: payoutSummary(record, translate, { full: true }),
              })}
              value={referenceOf(record)}
              onChange={(event) =>
                setReferences((current) => ({ ...current, [String(record.id)]: event.target.value }))
              }
              error={touched && Boolean(problems[index])}
              helperText={touched && problems[index] ? translate(problems[index]) : ' '}
              slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={payouts.length === 0}>
            {translate('offers.payouts.markPaid')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
