import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { type Identifier, useGetList, useTranslate } from 'react-admin';

/** Chooses the slot (the requested one first) and asks for confirmation. */
export const ApproveDialog = ({
  open,
  title,
  requestedSlotId,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  requestedSlotId: Identifier;
  onConfirm: (slotId: Identifier) => void;
  onCancel: () => void;
}) => {
  const translate = useTranslate();
  const id = useId();
  const [slotId, setSlotId] = useState<Identifier>(requestedSlotId);
  const { data: slots = [] } = useGetList(
    'slots',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' } },
    { enabled: open },
  );
  useEffect(() => {
    if (open) setSlotId(requestedSlotId);
  }, [open, requestedSlotId]);

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <FormControl fullWidth sx={{ mt: 1, mb: 2 }}>
          <InputLabel id={`${id}-slot`}>{translate('offers.review.slot')}</InputLabel>
          <Select
            labelId={`${id}-slot`}
            label={translate('offers.review.slot')}
            name="slotId"
            value={slots.length ? slotId : ''}
            onChange={(event) => setSlotId(event.target.value as Identifier)}
          >
            {slots.map((slot) => (
              <MenuItem key={slot.id} value={slot.id}>
                {translate('offers.review.slotOption', {
                  name: slot.name,
                  kind: translate(`resources.slots.fields.${slot.kind}`),
                  smart_count: slot.capacity,
                })}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <DialogContentText>{translate('offers.review.approveConfirm')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={() => onConfirm(slotId)}>
          {translate('offers.review.approve')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
