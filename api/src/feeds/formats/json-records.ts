import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { getManyValues, isMany, none } from 'stream-chain/core';
import { jsonParser } from 'stream-json/parser.js';
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

type Token = { name: string; value?: unknown };
type Container = Record<string, unknown> | unknown[];

/**
 * Turns the tokens of a JSON feed into its records: the elements of a bare array, or of the
 * envelope's list under `listKey`, whatever else the envelope holds skipped unread. Records are
 * assembled here from streamed chunks (the tokenizer packs nothing), so a hostile body costs
 * bounded memory: a record whose keys and values together pass FEED_RECORD_MAX_CHARS, or that
 * nests too deep, is dropped as it grows and reported; objects have no prototype (a `__proto__`
 * key is only a key); a file nested past any feed's shape is refused.
 */
class RecordAssembler {
  private depth = 0;
  private top: 'unknown' | 'list' | 'envelope' = 'unknown';
  /** The depth of the list's elements while inside the list, else -1. */
  private listDepth = -1;
  foundList = false;
  private envelopeKey: string | null = null;
  private readingEnvelopeKey = false;

  private line = 0;
  private building = false;
  private refused: 'record-too-large' | null = null;
  private stack: Container[] = [];
  private keys: (string | null)[] = [];
  private text = '';
  private chars = 0;
  private record: unknown;

  constructor(private readonly listKey: string) {}

  get shape() {
    return this.top;
  }

  /** Takes one token; answers an entry when it completes one. */
  take(token: Token): JsonEntry | undefined {
    const name = token.name;
    let opens = false;
    let closes = false;
    let startsValue = false;
    let endsValue = false;
    switch (name) {
      case 'startObject':
      case 'startArray':
        opens = true;
        startsValue = true;
        break;
      case 'endObject':
      case 'endArray':
        closes = true;
        endsValue = true;
        break;
      case 'startString':
      case 'startNumber':
        startsValue = true;
        break;
      case 'endString':
      case 'endNumber':
        endsValue = true;
        break;
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        startsValue = true;
        endsValue = true;
        break;
    }

    if (this.depth === 0 && this.top === 'unknown' && startsValue) {
      if (name === 'startArray') {
        this.top = 'list';
        this.listDepth = 1;
        this.foundList = true;
      } else if (name === 'startObject') this.top = 'envelope';
      else throw new FeedUnreadable('The feed is not a list of records.');
    } else if (!this.building && startsValue && this.depth === this.listDepth) this.startRecord();
    else if (this.top === 'envelope' && this.depth === 1 && !this.building)
      this.envelopeToken(token, startsValue);

    if (opens) {
      this.depth += 1;
      if (this.depth > FILE_MAX_DEPTH)
        throw new FeedUnreadable('The feed is nested too deeply to be a feed.');
    } else if (closes) this.depth -= 1;

    if (!this.building) {
      if (closes && this.depth < this.listDepth) this.listDepth = -1; // the list has ended
      return undefined;
    }
    if (this.refused === null) this.build(token);
    if (!endsValue || this.depth !== this.listDepth) return undefined;

    this.building = false;
    const record = this.record;
    this.record = undefined;
    if (this.refused !== null) return { line: this.line, refused: this.refused };
    if (record === null || typeof record !== 'object' || Array.isArray(record))
      return { line: this.line, refused: 'not-a-record' };
    return { line: this.line, record };
  }

  /** The envelope's own keys, to find the list. */
  private envelopeToken(token: Token, startsValue: boolean) {
    if (token.name === 'startKey') {
      this.readingEnvelopeKey = true;
      this.text = '';
    } else if (token.name === 'stringChunk' && this.readingEnvelopeKey) {
      if (this.text.length < 64) this.text += String(token.value).slice(0, 64);
    } else if (token.name === 'endKey') {
      this.readingEnvelopeKey = false;
      this.envelopeKey = this.text;
    } else if (startsValue && this.envelopeKey === this.listKey && !this.foundList) {
      if (token.name !== 'startArray')
        throw new FeedUnreadable(`The feed's "${this.listKey}" is not a list.`);
      this.foundList = true;
      this.listDepth = 2;
    }
  }

  private startRecord() {
    this.line += 1;
    this.building = true;
    this.refused = null;
    this.stack = [];
    this.keys = [];
    this.chars = 0;
    this.record = undefined;
  }

  private add(value: unknown) {
    const parent = this.stack.at(-1);
    if (parent === undefined) this.record = value;
    else if (Array.isArray(parent)) parent.push(value);
    else parent[this.keys.at(-1) ?? ''] = value;
  }

  private build(token: Token) {
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        const container: Container = token.name === 'startObject' ? Object.create(null) : [];
        this.add(container);
        this.stack.push(container);
        this.keys.push(null);
        if (this.stack.length > RECORD_MAX_DEPTH) this.refused = 'record-too-large';
        break;
      }
      case 'endObject':
      case 'endArray':
        this.stack.pop();
        this.keys.pop();
        break;
      case 'startKey':
      case 'startString':
      case 'startNumber':
        this.text = '';
        break;
      case 'stringChunk':
      case 'numberChunk': {
        const chunk = token.value as string;
        this.chars += chunk.length;
        if (this.chars > FEED_RECORD_MAX_CHARS) this.refused = 'record-too-large';
        else this.text += chunk;
        break;
      }
      case 'endKey':
        this.keys[this.keys.length - 1] = this.text;
        break;
      case 'endString':
        this.add(this.text);
        break;
      case 'endNumber':
        // As written: an id of 20 digits stays exact (every field reader takes text).
        this.add(this.text);
        break;
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        this.add(token.value);
        break;
    }
    if (this.refused !== null) {
      // Drop what was built; the rest of the record is only counted through.
      this.stack = [];
      this.keys = [];
      this.text = '';
    }
  }
}

/**
 * The records of a JSON feed, as the bytes arrive. stream-json's tokenizer is called directly on
 * each chunk (its tokens come back as an array): a stream of millions of token objects would cost
 * more than the parsing.
 */
export async function* jsonRecords(input: Readable, listKey: string): AsyncGenerator<JsonEntry> {
  // Flushable: called with `none` at the end, it ends the last value (or says the JSON is cut off).
  const tokenize = jsonParser({ packValues: false, streamValues: true }) as (
    text: string | typeof none,
  ) => unknown;
  const decoder = new StringDecoder('utf8');
  const assembler = new RecordAssembler(listKey);
  let first = true;
  const entries = (text: string | typeof none): JsonEntry[] => {
    const out = tokenize(text);
    if (out === none) return [];
    const found: JsonEntry[] = [];
    for (const token of (isMany(out) ? getManyValues(out) : [out]) as Token[]) {
      const entry = assembler.take(token);
      if (entry !== undefined) found.push(entry);
    }
    return found;
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let text = decoder.write(chunk);
      if (first && text !== '') {
        // A UTF-8 byte-order mark is not part of the JSON.
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      yield* entries(text);
    }
    const rest = decoder.end();
    if (rest !== '') yield* entries(rest);
    yield* entries(none);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedUnreadable('The feed is not valid JSON.');
  } finally {
    input.destroy();
  }
  if (!assembler.foundList) {
    throw new FeedUnreadable(
      assembler.shape === 'envelope'
        ? `The feed has no "${listKey}" list.`
        : 'The feed is not a list of records.',
    );
  }
}
