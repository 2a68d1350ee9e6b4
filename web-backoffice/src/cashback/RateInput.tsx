import { MenuItem, Stack, TextField } from '@mui/material';
import { type CashbackRate, isCashbackRate } from '@offers/api/rules';
import { useId } from 'react';
import { InputHelperText, useInput, useTranslate } from 'react-admin';

type RateKind = 'default' | 'percent' | 'rupees';

/** The form's value as a rate: anything but an object (null, an empty field) is none. */
const asRate = (value: unknown): CashbackRate | null =>
  typeof value === 'object' && value !== null ? (value as CashbackRate) : null;

const kindOf = (rate: CashbackRate | null, allowDefault: boolean): RateKind =>
  rate === null ? (allowDefault ? 'default' : 'percent') : 'percent' in rate ? 'percent' : 'rupees';

const amountOf = (rate: CashbackRate | null) =>
  rate === null ? '' : 'percent' in rate ? rate.percent : rate.rupees;

/** A rate as the API takes it ({percent} or {rupees}); null for the site's default when allowed. */
const rateOf = (kind: RateKind, amount: string): CashbackRate | null =>
  kind === 'default' ? null : kind === 'percent' ? { percent: amount.trim() } : { rupees: amount.trim() };

/**
 * A cashback rate: its kind (percent or flat rupees, or the site's default where `allowDefault`)
 * and its amount, kept in the form as the API's shape. The amount is checked by the rules' patterns.
 */
export const RateInput = ({
  source,
  label,
  allowDefault = false,
}: {
  source: string;
  label: string;
  allowDefault?: boolean;
}) => {
  const translate = useTranslate();
  const id = useId();
  const validate = (value: unknown) =>
    (asRate(value) === null && allowDefault) || isCashbackRate(value)
      ? undefined
      : 'offers.cashback.rateInvalid';
  // The rate's object as it is: react-admin's default format and parse would turn null into ''.
  const { field, fieldState } = useInput({
    source,
    validate,
    format: (value: unknown) => value,
    parse: (value: unknown) => value,
  });
  const rate = asRate(field.value);
  const kind = kindOf(rate, allowDefault);
  const amount = amountOf(rate);
  const error = fieldState.error?.message;
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
      <TextField
        select
        id={`${id}-kind`}
        label={translate(label)}
        value={kind}
        onChange={(event) => field.onChange(rateOf(event.target.value as RateKind, amount))}
        onBlur={field.onBlur}
        size="small"
        sx={{ minWidth: 190 }}
      >
        {allowDefault && <MenuItem value="default">{translate('offers.cashback.kind.default')}</MenuItem>}
        <MenuItem value="percent">{translate('offers.cashback.kind.percent')}</MenuItem>
        <MenuItem value="rupees">{translate('offers.cashback.kind.rupees')}</MenuItem>
      </TextField>
      {kind !== 'default' && (
        <TextField
          id={`${id}-amount`}
          label={translate(kind === 'percent' ? 'offers.cashback.percent' : 'offers.cashback.rupees', {
            label: translate(label),
          })}
          value={amount}
          onChange={(event) => field.onChange(rateOf(kind, event.target.value))}
          onBlur={field.onBlur}
          inputProps={{ inputMode: 'decimal', maxLength: 10 }}
          error={fieldState.invalid && fieldState.isTouched}
          helperText={
            fieldState.invalid && fieldState.isTouched ? (
              <InputHelperText error={error} helperText={false} />
            ) : (
              ' '
            )
          }
          size="small"
          sx={{ minWidth: 200 }}
        />
      )}
    </Stack>
  );
};

/** A rate as a short text: "7.5%" or "₹40.00". */
export const rateText = (rate: unknown) => {
  const known = asRate(rate);
  return known === null ? '—' : 'percent' in known ? `${known.percent}%` : `₹${known.rupees}`;
};
