/**
 * Money as the product keeps it: integer paise in the database and in events, decimal strings of
 * rupees ("1299.50") in the API, converted exactly (no floating point on the way).
 */

/** "1299.5" rupees → 129950 paise, exactly (no floating point on the way). */
export function rupeesToPaise(rupees: string): number {
  const [whole, fraction = ''] = rupees.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 129950 paise → "1299.50": the API's price, a decimal string of rupees. */
export function paiseToRupees(paise: number): string {
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}

/**
 * Paise → "₹1,29,999.50": the rupee sign and Indian digit grouping (the last three digits, then
 * pairs), for the web apps' price labels.
 */
export function formatRupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const [whole, fraction] = paiseToRupees(Math.abs(paise)).split('.') as [string, string];
  const head = whole.slice(0, -3);
  const grouped = head ? `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}` : whole;
  return `${sign}₹${grouped}.${fraction}`;
}
