import { type DescribePerson, fact, rupees } from '../../privacy/person-data.js';
import { destinationOf, type PayoutRow, shopperPayout } from './payouts.js';

/**
 * The shopper's payouts as their payouts page shows them: amount, where to (the account number
 * masked, as everywhere the product shows it), state, bank reference and dates.
 */
export const describePayouts: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const rows: Array<Omit<PayoutRow, 'userName' | 'userEmail'>> = await reader.query(
    `SELECT id, user_id AS "userId", amount_paise AS "amountPaise", method, upi_id AS "upiId",
            account_number AS "accountNumber", ifsc, account_holder_name AS "accountHolderName", state,
            bank_reference AS "bankReference", failure_reason AS "failureReason",
            requested_at AS "requestedAt", processing_at AS "processingAt", paid_at AS "paidAt",
            failed_at AS "failedAt"
     FROM payouts WHERE user_id = $1 ORDER BY requested_at, id`,
    [person.id],
  );
  const sum = (states: string[]) =>
    rows
      .filter((row) => states.includes(row.state))
      .reduce((total, row) => total + Number(row.amountPaise), 0);
  return [
    {
      section: 'payouts',
      count: rows.length,
      facts: [
        fact('paid', rupees(sum(['paid'])), 'money'),
        fact('underway', rupees(sum(['requested', 'processing'])), 'money'),
        fact('destinations', [...new Set(rows.map((row) => destinationOf(row)))].join(', ')),
      ],
      sharedWith: [],
      records: rows.map((row) => ({ ...shopperPayout({ ...row, userName: '', userEmail: '' }) })),
    },
  ];
};
