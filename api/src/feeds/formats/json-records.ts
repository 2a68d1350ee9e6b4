import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parser } from 'stream-json';
import { FEED_RECORD_MAX_CHARS } from '../../rules/feeds.js';
import { FeedError, FeedUnreadable } from './feed-row.js';

/** One entry of a feed's list: the record, or why it was not built. */
export type JsonEntry =
  | { line: number; record: unknown }
  | { line: number; refused: 'record-too-large' | 'not-a-record' };

/** Deepest nesting inside one record (a coupon's campaign and categories need three). */
const RECORD_MAX_DEPTH = 8;
/** Deepest nesting anywhere in the file: past it the body is not a feed. */
const FILE_MAX_DEPTH = 64;

type Container = Record<string, unknown> | unknown[];

/**
 * The records of a JSON feed, one at a time as the bytes arrive: the elements of a bare array,
 * or of the envelope's list under `listKey` (`results`, `offers`), whatever else the envelope
 * holds (`_meta`, counts) skipped unread.
 *
 * stream-json's tokenizer runs with every value streamed in chunks and none packed, and records are
 * assembled here, so a hostile body costs bounded memory: a record whose strings together pass
 * FEED_RECORD_MAX_CHARS or that nests too deep is dropped as it grows (and reported), objects are
 * built without a prototype (a `__proto__` key is only a key), and a file nested past any feed's
 * shape stops the read.
 */
export async function* jsonRecords(input: Readable, listKey: string): AsyncGenerator<JsonEntry> {
  const tokens = parser.asStream({ packValues: false, streamValues: true });
  // The pipeline carries the input's errors (a failed fetch, a size limit) to the tokens.
  const feeding = pipeline(input, tokens);
  feeding.catch(() => undefined);

  let depth = 0;
  let top: 'unknown' | 'list' | 'envelope' = 'unknown';
  let listDepth = -1; // depth of the list's own array once entered
  let foundList = false;
  let envelopeKey: string | null = null;
  let keyText = '';
  let readingKey = false;

  // The record being built.
  let line = 0;
  let building = false;
  let refused: 'record-too-large' | null = null;
  let stack: Container[] = [];
  let keys: (string | null)[] = [];
  let text = '';
  let chars = 0;
  let record: unknown;

  const startRecord = () => {
    line += 1;
    building = true;
    refused = null;
    stack = [];
    keys = [];
    chars = 0;
    record = undefined;
  };
  const add = (value: unknown): boolean => {
    const parent = stack.at(-1);
    if (parent === undefined) {
      record = value;
      return true;
    }
    if (Array.isArray(parent)) parent.push(value);
    else parent[keys.at(-1) ?? ''] = value;
    return false;
  };
  const grow = (length: number) => {
    chars += length;
    if (chars > FEED_RECORD_MAX_CHARS) refused = 'record-too-large';
  };

  try {
    for await (const token of tokens as AsyncIterable<{ name: string; value?: unknown }>) {
      const name = token.name;
      const opens = name === 'startObject' || name === 'startArray';
      const closes = name === 'endObject' || name === 'endArray';

      // Where the token stands before it is applied.
      if (depth === 0 && top === 'unknown') {
        if (name === 'startArray') {
          top = 'list';
          listDepth = 1;
          foundList = true;
        } else if (name === 'startObject') top = 'envelope';
        else if (opens || name === 'startString' || name === 'startNumber' || name.endsWith('Value'))
          throw new FeedUnreadable('The feed is not a list of records.');
      }

      // A value starting right inside the list is a new record.
      const startsValue =
        opens || name === 'startString' || name === 'startNumber' || /^(null|true|false)Value$/.test(name);
      if (!building && startsValue && depth === listDepth && foundList && listDepth > 0) startRecord();

      // The envelope's own keys, to find the list.
      if (top === 'envelope' && depth === 1 && !building) {
        if (name === 'startKey') {
          readingKey = true;
          keyText = '';
        } else if (name === 'stringChunk' && readingKey) keyText += String(token.value).slice(0, 64);
        else if (name === 'endKey') {
          readingKey = false;
          envelopeKey = keyText;
        } else if (startsValue && envelopeKey === listKey && !foundList) {
          if (name !== 'startArray') throw new FeedUnreadable(`The feed's "${listKey}" is not a list.`);
          foundList = true;
          listDepth = 2;
        }
      }

      if (opens) {
        depth += 1;
        if (depth > FILE_MAX_DEPTH) throw new FeedUnreadable('The feed is nested too deeply to be a feed.');
      } else if (closes) depth -= 1;

      if (!building) {
        if (closes && depth < listDepth) listDepth = -1; // the list has ended
        continue;
      }

      // Building a record: `depth` is already past an opening token.
      if (refused === null) {
        switch (name) {
          case 'startObject':
          case 'startArray': {
            const container: Container = name === 'startObject' ? Object.create(null) : [];
            add(container);
            stack.push(container);
            keys.push(null);
            if (stack.length > RECORD_MAX_DEPTH) refused = 'record-too-large';
            break;
          }
          case 'endObject':
          case 'endArray':
            stack.pop();
            keys.pop();
            break;
          case 'startKey':
          case 'startString':
          case 'startNumber':
            text = '';
            break;
          case 'stringChunk':
          case 'numberChunk':
            grow(String(token.value).length);
            if (refused === null) text += token.value as string;
            break;
          case 'endKey':
            keys[keys.length - 1] = text;
            break;
          case 'endString':
            add(text);
            break;
          case 'endNumber':
            add(Number(text));
            break;
          case 'nullValue':
          case 'trueValue':
          case 'falseValue':
            add(token.value);
            break;
        }
        if (refused !== null) {
          // Drop what was built; the rest of the record is only counted through.
          stack = [];
          keys = [];
          text = '';
        }
      }

      // The record ends when the depth is back at the list's, after a value's last token.
      const valueEnds =
        closes || name === 'endString' || name === 'endNumber' || /^(null|true|false)Value$/.test(name);
      if (valueEnds && depth === listDepth) {
        building = false;
        if (refused !== null) yield { line, refused };
        else if (record === null || typeof record !== 'object' || Array.isArray(record))
          yield { line, refused: 'not-a-record' };
        else yield { line, record };
      }
    }
    await feeding;
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedUnreadable('The feed is not valid JSON.');
  } finally {
    // Also when the reader stops early: the input (a fetch's socket) is let go at once.
    tokens.destroy();
  }
  if (!foundList) {
    throw new FeedUnreadable(
      top === 'envelope' ? `The feed has no "${listKey}" list.` : 'The feed is not a list of records.',
    );
  }
}
