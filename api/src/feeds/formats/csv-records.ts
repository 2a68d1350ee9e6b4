import type { Readable } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { FEED_RECORD_MAX_CHARS, type FeedCsvSeparator } from '../../rules/feeds.js';
import { FeedError, FeedUnreadable } from './feed-row.js';

/** One CSV record by its header's column names, with the line it starts on. */
export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

/**
 * The records of a CSV feed as they arrive, read by csv-parse: a UTF-8 byte-order mark dropped,
 * CRLF or LF line ends, quoted fields holding the separator, quotes or line breaks, blank lines
 * skipped. The first record is the header; `requireColumns` checks it before any row is read (a
 * body without those columns is not this feed). A row with fewer or more fields than the header
 * is read as it is: its missing fields are empty. A record longer than FEED_RECORD_MAX_CHARS is
 * almost always a quote left open that swallows the rest of the file, so it stops the read.
 */
export async function* csvRecords(
  input: Readable,
  separator: FeedCsvSeparator,
  requireColumns: (header: string[]) => string | null,
): AsyncGenerator<CsvRecord> {
  const records = parse({
    bom: true,
    delimiter: separator,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: FEED_RECORD_MAX_CHARS,
  });
  input.on('error', (error) => records.destroy(error));
  input.pipe(records);
  let header: string[] | null = null;
  // csv-parse counts a CRLF inside a quoted field as two lines: taken off again, so `line` is
  // the line the record starts on, as an editor shows it.
  let overCounted = 0;
  const breaks = (values: string[], pattern: RegExp) =>
    values.reduce((sum, value) => sum + (value.match(pattern)?.length ?? 0), 0);
  try {
    for await (const { record, info } of records as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      overCounted += breaks(record, /\r\n/g);
      if (header === null) {
        header = record.map((name) => name.trim());
        const problem = requireColumns(header);
        if (problem !== null) throw new FeedUnreadable(problem);
        continue;
      }
      const values: Record<string, string> = Object.create(null);
      header.forEach((name, index) => {
        values[name] = record[index] ?? '';
      });
      yield { line: info.lines - overCounted - breaks(record, /\n/g), values };
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    const code = (error as Partial<CsvError>).code;
    throw new FeedUnreadable(
      code === 'CSV_MAX_RECORD_SIZE'
        ? `A record of the feed is longer than ${FEED_RECORD_MAX_CHARS / 1024} KB (a quote left open?).`
        : 'The feed is not a readable CSV file.',
    );
  } finally {
    input.unpipe(records);
    records.destroy();
    input.destroy();
  }
  if (header === null) throw new FeedUnreadable('The feed has no header row.');
}
