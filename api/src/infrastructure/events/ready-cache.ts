import { LRUCache } from 'lru-cache';
import { ChangeListener } from './change-listener.js';

interface Entry<T> {
  value: T;
  validUntil: number;
}

/** What a build made: the answer, until when it holds, and whether it is kept apart. */
export interface Built<T> {
  value: T;
  /** When the answer stops holding (a time in ms); `maxAgeMs` bounds it in any case. */
  validUntil?: number;
  /**
   * Kept within the bounded share (`maxApartEntries`): free-text searches, answers that name
   * nothing (an empty list, a page not found). However many of them are asked, they evict only
   * each other, never the canonical answers everyone asks for.
   */
  apart?: boolean;
}

export interface ReadyCacheLimits<T> {
  /** Answers kept at most; past it the least recently used goes. */
  maxEntries: number;
  /** Bytes kept at most, as `sizeOf` counts an answer (with `maxEntries`, whichever comes first). */
  maxBytes?: number;
  sizeOf?: (value: T) => number;
  /** Answers kept apart at most (see {@link Built.apart}); a tenth of `maxEntries` by default. */
  maxApartEntries?: number;
  maxAgeMs: number;
  /** Told of each lookup's outcome (metrics). */
  observe?: (outcome: 'hit' | 'miss') => void;
}

/**
 * Answers kept ready in one process's memory until a change notification (PostgreSQL NOTIFY on
 * `channels`, which reaches every process) says what they were built from changed, or until they
 * expire. A build that began before a change may have read the old rows: it is answered but never
 * kept. While the notification connection is down nothing is kept, so no process serves an answer
 * older than the read models. Concurrent misses of one key share one build.
 *
 * Keys are canonical requests (what is asked, normalised by the caller), so a parameter nobody
 * reads never makes an entry. Bounded by entries (and bytes, when given), least recently used
 * evicted first (lru-cache), never emptied for room; free text and answers that name nothing live
 * in a share of their own. An alias (the raw request URL a lookup before routing sees) points to
 * a key from a bounded map of its own: aliases evict only aliases.
 */
export class ReadyCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly apart: LRUCache<string, Entry<T>>;
  private readonly aliases: LRUCache<string, string>;
  private readonly building = new Map<string, Promise<Built<T> & { validUntil: number }>>();
  private generation = 0;
  private readonly changes: ChangeListener;

  constructor(
    databaseUrl: string,
    channels: readonly string[],
    logger: { warn(message: string): void },
    private readonly limits: ReadyCacheLimits<T>,
  ) {
    const apartEntries = limits.maxApartEntries ?? Math.max(1, Math.ceil(limits.maxEntries / 10));
    const bytes = (max: number | undefined, share: number) =>
      max === undefined || !limits.sizeOf
        ? {}
        : {
            maxSize: Math.max(1, Math.floor(max * share)),
            sizeCalculation: (entry: Entry<T>) => Math.max(1, limits.sizeOf!(entry.value)),
          };
    this.entries = new LRUCache({ max: limits.maxEntries, ...bytes(limits.maxBytes, 1) });
    this.apart = new LRUCache({
      max: apartEntries,
      ...bytes(limits.maxBytes, apartEntries / limits.maxEntries),
    });
    this.aliases = new LRUCache({ max: limits.maxEntries });
    this.changes = new ChangeListener(databaseUrl, channels, () => this.clear(), logger);
  }

  start(): void {
    this.changes.start();
  }

  stop(): Promise<void> {
    return this.changes.stop();
  }

  get listening(): boolean {
    return this.changes.listening;
  }

  /** How many answers are kept, in the main part and apart, and how many aliases point to them. */
  get counts(): { entries: number; apart: number; aliases: number } {
    return { entries: this.entries.size, apart: this.apart.size, aliases: this.aliases.size };
  }

  /** The ready answer for `key` (or an alias of one), if there is one; it becomes the most recently used. */
  peek(key: string): T | undefined {
    if (!this.changes.listening) return undefined;
    let entry = this.entries.get(key) ?? this.apart.get(key);
    if (entry === undefined) {
      const target = this.aliases.get(key);
      if (target !== undefined) entry = this.entries.get(target);
    }
    return entry && entry.validUntil > Date.now() ? entry.value : undefined;
  }

  /** The ready answer for `key`, if there is one, counted as a hit (a lookup before routing). */
  serve(key: string): T | undefined {
    const ready = this.peek(key);
    if (ready !== undefined) this.limits.observe?.('hit');
    return ready;
  }

  /**
   * The answer for `key`: ready, or built now. `build` may say how long its answer holds and
   * whether it is kept apart ({@link Built}).
   */
  async get(
    key: string,
    build: () => Promise<Built<T>>,
    /** A second key the answer is found by too (the raw request URL, for a lookup before routing). */
    alias?: string,
  ): Promise<T> {
    const ready = this.peek(key);
    this.limits.observe?.(ready !== undefined ? 'hit' : 'miss');
    if (ready !== undefined) {
      if (alias && alias !== key && this.entries.has(key)) this.aliases.set(alias, key);
      return ready;
    }
    const generation = this.generation;
    let pending = this.building.get(key);
    if (!pending) {
      const startedAt = Date.now();
      pending = build()
        .then((built) => ({
          ...built,
          validUntil: Math.min(
            startedAt + this.limits.maxAgeMs,
            built.validUntil ?? Number.POSITIVE_INFINITY,
          ),
        }))
        .finally(() => {
          if (this.building.get(key) === pending) this.building.delete(key);
        });
      this.building.set(key, pending);
    }
    const built = await pending;
    if (this.changes.listening && generation === this.generation) {
      const entry = { value: built.value, validUntil: built.validUntil };
      if (built.apart) {
        this.apart.set(key, entry);
      } else {
        this.entries.set(key, entry);
        // Aliases lead to the main part only: a search is found by its key, after routing.
        if (alias && alias !== key) this.aliases.set(alias, key);
      }
    }
    return built.value;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.apart.clear();
    this.aliases.clear();
    this.building.clear();
  }
}
