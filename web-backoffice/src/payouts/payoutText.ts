import { formatRupees, rupeesToPaise } from '@offers/api/rules';
import type { RaRecord, TranslateFunction } from 'react-admin';

/** The amount as India writes it: ₹1,23,456.50 (the API sends rupees as "123456.50"). */
export const payoutAmount = (record: RaRecord) => formatRupees(rupeesToPaise(String(record.amount)));

/**
 * "#12: ₹300.00 to asha@okaxis (Asha Rao)", naming a payout in buttons and dialogs. Lists show the
 * account's last four digits; `full` gives the whole account number, for the dialogs of the payment
 * run, where the admin pays it.
 */
export const payoutSummary = (record: RaRecord, translate: TranslateFunction, { full = false } = {}) =>
  translate('offers.payouts.summary', {
    id: record.id,
    amount: payoutAmount(record),
    destination:
      full && record.method === 'bank' ? `${record.accountNumber} · ${record.ifsc}` : record.destination,
    name: record.userName,
  });
