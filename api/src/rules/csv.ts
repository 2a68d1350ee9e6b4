/**
 * CSV as admins download it (exports of the back-office, a feed run's rejected rows), one writer
 * for the API and the back-office.
 *
 * Spreadsheet programs run a cell that starts with `=`, `+`, `-` or `@` as a formula (and tab or
 * carriage return can smuggle one in), so an exported subscriber address or contact message such
 * as `=HYPERLINK("https://evil.example", "click")` would become a live link or worse. Such cells
 * get a leading apostrophe, which spreadsheets show as text (OWASP's advice for CSV injection).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  const safe = neutraliseCell(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Records as CSV, every cell neutralised: the columns given (a header even without records), or
 * one per field any record has, in first-seen order.
 */
export function toCsv(
  records: ReadonlyArray<Record<string, unknown>>,
  columns: readonly string[] = [...new Set(records.flatMap((record) => Object.keys(record)))],
): string {
  const lines = [
    columns.map(cell).join(','),
    ...records.map((record) => columns.map((c) => cell(record[c])).join(',')),
  ];
  return lines.join('\r\n');
}
