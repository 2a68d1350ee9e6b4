import { toCsv } from '@offers/api/rules';
import { downloadCSV, type Exporter } from 'react-admin';

export { neutraliseCell, toCsv } from '@offers/api/rules';

/** react-admin's export button, writing neutralised cells. */
export const safeExporter: Exporter = (records, _fetchRelated, _dataProvider, resource) =>
  downloadCSV(toCsv(records as Array<Record<string, unknown>>), resource ?? 'export');
