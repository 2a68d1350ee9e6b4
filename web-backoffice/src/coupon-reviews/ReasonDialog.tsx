import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';

export interface Rejection {
  reason: string;
  advisedChanges?: string;
}

/**
 * Asks why something is rejected (required), then, when `advice` is given, which changes are
 * advised. Cancelling at any step rejects nothing.
 */
export const ReasonDialog = ({
  open,
  title,
  defaultReason = '',
  advice,
  requiredMessage = 'offers.review.reasonRequired',
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  defaultReason?: string;
  /** The default advised changes; leave out to ask for a reason only. */
  advice?: string;
  /** The message when the reason is left empty. */
  requiredMessage?: string;
  onConfirm: (rejection: Rejection) => void;
  onCancel: () => void;
}) => {
  const translate = useTranslate();
  const id = useId();
  const [step, setStep] = useState<'reason' | 'advice'>('reason');
  const [reason, setReason] = useState(defaultReason);
  const [advisedChanges, setAdvisedChanges] = useState(advice ?? '');
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setStep('reason');
      setReason(defaultReason);
      setAdvisedChanges(advice ?? '');
      setTouched(false);
    }
  }, [open, defaultReason, advice]);

  const missing = reason.trim() === '';
  const next = () => {
    setTouched(true);
    if (missing) return;
    if (advice !== undefined && step === 'reason') setStep('advice');
    else
      onConfirm({
        reason: reason.trim(),
        ...(advice !== undefined && { advisedChanges: advisedChanges.trim() }),
      });
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <form
        // The dialog's own message explains an empty reason, in the chosen language.
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          next();
        }}
      >
        <DialogContent>
          {step === 'reason' ? (
            <TextField
              autoFocus
              required
              fullWidth
              multiline
              minRows={2}
              name="reason"
              label={translate('offers.review.reason')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && missing}
              helperText={
                touched && missing ? translate(requiredMessage) : translate('offers.review.reasonHelp')
              }
            />
          ) : (
            <TextField
              autoFocus
              fullWidth
              multiline
              minRows={2}
              name="advisedChanges"
              label={translate('offers.review.advisedChanges')}
              value={advisedChanges}
              onChange={(event) => setAdvisedChanges(event.target.value)}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" color="error">
            {advice !== undefined && step === 'reason'
              ? translate('offers.review.next')
              : translate('offers.review.reject')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
