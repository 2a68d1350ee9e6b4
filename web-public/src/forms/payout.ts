/**
 * The payout form's checks, as the API makes them (api/src/rules/payouts.ts): the same patterns
 * and messages, so the shopper sees the server's words before sending. The API checks again.
 */
import {
  normaliseAccountNumber,
  normaliseIfsc,
  normaliseUpiId,
  PAYOUT,
  PAYOUT_RULES,
  type PayoutMethod,
  rupeesToPaise,
} from './rules.js';
import type { Errors } from './validate.js';

export type PayoutField = 'amount' | 'upiId' | 'accountNumber' | 'ifsc' | 'accountHolderName';
export const PAYOUT_FIELDS: readonly PayoutField[] = [
  'amount',
  'upiId',
  'accountNumber',
  'ifsc',
  'accountHolderName',
];

/** The limits the API gave with the balance, in paise. */
export interface PayoutLimits {
  minimumPaise: number;
  availablePaise: number;
}

export function validatePayout(
  values: Record<PayoutField, string>,
  method: PayoutMethod,
  limits: PayoutLimits,
): Errors<PayoutField> {
  const errors: Errors<PayoutField> = {};
  const amount = values.amount.trim();
  if (!amount) errors.amount = PAYOUT.amount.required;
  else if (!PAYOUT_RULES.amount.test(amount)) errors.amount = PAYOUT.amount.invalid;
  else {
    const paise = rupeesToPaise(amount);
    if (paise === 0) errors.amount = PAYOUT.amount.zero;
    else if (paise < limits.minimumPaise) errors.amount = PAYOUT.amount.belowMinimum;
    else if (paise > limits.availablePaise) errors.amount = PAYOUT.amount.aboveBalance;
  }
  if (method === 'upi') {
    const upiId = normaliseUpiId(values.upiId);
    if (!upiId) errors.upiId = PAYOUT.upiId.required;
    else if (upiId.length > PAYOUT_RULES.upiIdMaxLength || !PAYOUT_RULES.upiId.test(upiId)) {
      errors.upiId = PAYOUT.upiId.invalid;
    }
    return errors;
  }
  const accountNumber = normaliseAccountNumber(values.accountNumber);
  if (!accountNumber) errors.accountNumber = PAYOUT.accountNumber.required;
  else if (!PAYOUT_RULES.accountNumber.test(accountNumber))
    errors.accountNumber = PAYOUT.accountNumber.invalid;
  const ifsc = normaliseIfsc(values.ifsc);
  if (!ifsc) errors.ifsc = PAYOUT.ifsc.required;
  else if (!PAYOUT_RULES.ifsc.test(ifsc)) errors.ifsc = PAYOUT.ifsc.invalid;
  if (values.accountHolderName.trim().length > PAYOUT_RULES.accountHolderNameMaxLength) {
    errors.accountHolderName = PAYOUT.accountHolderName.invalid;
  }
  return errors;
}

/** The request the API takes: only the chosen destination's fields. */
export function payoutRequest(values: Record<PayoutField, string>, method: PayoutMethod) {
  const amount = values.amount.trim();
  if (method === 'upi') return { amount, upiId: values.upiId.trim() };
  const name = values.accountHolderName.trim();
  return {
    amount,
    accountNumber: values.accountNumber.trim(),
    ifsc: values.ifsc.trim(),
    ...(name && { accountHolderName: name }),
  };
}
