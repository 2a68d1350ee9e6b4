import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { FEED_FETCH_DEFAULTS, type FeedCsvMapping, type FeedFormat } from '../../rules/feeds.js';
import { csvRecords } from './csv-records.js';
import { FeedError, type FeedRejection, type FeedRow, FeedUnreadable, feedTooLarge } from './feed-row.js';
import { jsonRecords } from './json-records.js';
import {
  admitadRow,
  csvMappingProblems,
  cuelinksRow,
  LINKMYDEALS_REQUIRED_COLUMNS,
  linkMyDealsRow,
  mappedColumns,
  mappedRow,
} from './presets.js';
import { type RowCandidate, RowChecker, rejection } from './row-check.js';

const MEGABYTE = 1024 * 1024;

export interface ReadFeedOptions {
  /** Largest feed after decompression, in bytes (the FEED_MAX_MB setting). */
  maxBytes?: number;
  /** The time end dates are compared with. */
  now?: Date;
}

/**
 * The feed's bytes, decompressed when they are gzip (by the magic bytes 1f 8b, whatever the file
 * is called or served as) and counted after decompression, so a small file that unpacks to
 * gigabytes stops at the limit.
 */
async function* decodedBytes(input: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const buffer = (chunk: Buffer | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < 2) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, buffer(next.value)]);
  }
  async function* raw(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      while (!ended) {
        const next = await chunks.next();
        if (next.done) return;
        yield buffer(next.value);
      }
    } finally {
      await chunks.return?.();
    }
  }
  let total = 0;
  const counted = (chunk: Buffer) => {
    total += chunk.length;
    if (total > maxBytes) throw feedTooLarge(maxBytes);
    return chunk;
  };
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    for await (const chunk of raw()) yield counted(chunk);
    return;
  }
  const gunzip = createGunzip();
  const feeding = pipeline(Readable.from(raw()), gunzip);
  feeding.catch(() => undefined);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield counted(chunk);
    await feeding;
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedUnreadable('The feed is gzip-compressed but cannot be decompressed.');
  } finally {
    gunzip.destroy();
  }
}

/**
 * Reads a feed as it arrives: each record becomes a checked row or a rejection with its line and
 * reason, in the feed's order. A body that is not the format at all (not JSON, no header row,
 * wrong envelope, broken gzip) throws FeedUnreadable; one larger than the limit FeedTooLarge;
 * an input that fails (a fetch cut off) throws its own FeedError. Stopping the iteration early
 * lets the input go.
 */
export async function* readFeed(
  input: Readable,
  format: FeedFormat,
  mapping?: FeedCsvMapping,
  options: ReadFeedOptions = {},
): AsyncGenerator<FeedRow | FeedRejection> {
  const maxBytes = options.maxBytes ?? FEED_FETCH_DEFAULTS.maxMegabytes * MEGABYTE;
  const checker = new RowChecker(options.now ?? new Date());
  const body = Readable.from(decodedBytes(input, maxBytes), { objectMode: false });
  // A stream destroyed from the outside (the reader stopped) lets the input go too.
  body.on('close', () => input.destroy());

  if (format === 'admitad-json' || format === 'cuelinks-json') {
    const read = format === 'admitad-json' ? admitadRow : cuelinksRow;
    for await (const entry of jsonRecords(body, format === 'admitad-json' ? 'results' : 'offers')) {
      if ('refused' in entry) yield rejection(entry.line, null, entry.refused);
      else yield checker.check(entry.line, read(entry.record as Record<string, unknown>));
    }
    return;
  }

  let row: (values: Record<string, unknown>) => RowCandidate;
  let requireColumns: (header: string[]) => string | null;
  if (format === 'linkmydeals-csv') {
    row = linkMyDealsRow;
    requireColumns = (header) => {
      const missing = LINKMYDEALS_REQUIRED_COLUMNS.filter((column) => !header.includes(column));
      return missing.length === 0
        ? null
        : `The feed is not a LinkMyDeals CSV: no column ${missing.join(', ')}.`;
    };
  } else {
    const problems = csvMappingProblems(mapping ?? {});
    if (Object.keys(problems).length > 0) {
      body.destroy();
      throw new FeedUnreadable(`The CSV mapping cannot be used: ${Object.values(problems).join(' ')}`);
    }
    let columns: ReturnType<typeof mappedColumns> = { problem: '' };
    row = (values) => mappedRow(values, 'columns' in columns ? columns.columns : {});
    requireColumns = (header) => {
      columns = mappedColumns(mapping!, header);
      return 'problem' in columns ? columns.problem : null;
    };
  }
  for await (const record of csvRecords(body, mapping?.separator ?? ',', requireColumns)) {
    yield checker.check(record.line, row(record.values));
  }
}
