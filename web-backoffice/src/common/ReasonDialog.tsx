import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';

/** What the dialog answers: the reason, and the advised changes when it asked for them. */
export interface Reason {
  reason: string;
  advisedChanges?: string;
}

/** The translation keys of one feature's reason dialog: each feature words it its own way. */
export interface ReasonTexts {
  /** The reason field's label, and the help under it while nothing is wrong. */
  label: string;
  help: string;
  /** The message when the reason is left empty. */
  required: string;
  /** The button that sends the reason (Reject, Mark failed). */
  confirm: string;
}

/** A second step after the reason: the changes advised, prefilled with `defaultText`. */
export interface AdviceStep {
  defaultText: string;
  /** Translation keys: the field's label and the button that leads to it. */
  label: string;
  next: string;
}

/**
 * Asks why (required; at most `tooLong.maxLength` characters when given), then, with `advice`,
 * which changes are advised. Cancelling at any step sends nothing.
 */
export const ReasonDialog = ({
  open,
  title,
  texts,
  defaultReason = '',
  tooLong,
  advice,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  texts: ReasonTexts;
  defaultReason?: string;
  /** The longest reason the server takes, and its message (a translation key) for a longer one. */
  tooLong?: { maxLength: number; message: string };
  advice?: AdviceStep;
  onConfirm: (answer: Reason) => void;
  onCancel: () => void;
}) => {
  const translate = useTranslate();
  const id = useId();
  const [step, setStep] = useState<'reason' | 'advice'>('reason');
  const defaultAdvice = advice?.defaultText ?? '';
  const [reason, setReason] = useState(defaultReason);
  const [advisedChanges, setAdvisedChanges] = useState(defaultAdvice);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setStep('reason');
      setReason(defaultReason);
      setAdvisedChanges(defaultAdvice);
      setTouched(false);
    }
  }, [open, defaultReason, defaultAdvice]);

  const text = reason.trim();
  const problem =
    text === '' ? texts.required : tooLong && text.length > tooLong.maxLength ? tooLong.message : undefined;
  const asksAdvice = advice !== undefined && step === 'reason';
  const next = () => {
    setTouched(true);
    if (problem) return;
    if (asksAdvice) setStep('advice');
    else onConfirm({ reason: text, ...(advice !== undefined && { advisedChanges: advisedChanges.trim() }) });
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <form
        // The dialog's own messages explain a missing or long reason, in the chosen language.
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          next();
        }}
      >
        <DialogContent>
          {step === 'advice' && advice ? (
            <TextField
              autoFocus
              fullWidth
              multiline
              minRows={2}
              name="advisedChanges"
              label={translate(advice.label)}
              value={advisedChanges}
              onChange={(event) => setAdvisedChanges(event.target.value)}
            />
          ) : (
            <TextField
              autoFocus
              required
              fullWidth
              multiline
              minRows={2}
              name="reason"
              label={translate(texts.label)}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && Boolean(problem)}
              helperText={touched && problem ? translate(problem) : translate(texts.help)}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" color="error">
            {translate(asksAdvice ? advice.next : texts.confirm)}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
