import { ChangeListener } from './change-listener.js';

interface Entry<T> {
  value: T;
  validUntil: number;
}

/**
 * Answers kept ready in one process's memory until a change notification (PostgreSQL NOTIFY on
 * `channels`, which reaches every process) says what they were built from changed, or until they
 * expire. A build that began before a change may have read the old rows: it is answered but never
 * kept. While the notification connection is down nothing is kept, so no process serves an answer
 * older than the read models. Concurrent misses of one key share one build.
 */
export class ReadyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly building = new Map<string, Promise<Entry<T>>>();
  private generation = 0;
  private readonly changes: ChangeListener;

  constructor(
    databaseUrl: string,
    channels: readonly string[],
    logger: { warn(message: string): void },
    private readonly limits: {
      maxEntries: number;
      maxAgeMs: number;
      /** Told of each lookup's outcome (metrics). */
      observe?: (outcome: 'hit' | 'miss') => void;
    },
  ) {
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

  /** The ready answer for `key`, if there is one. */
  peek(key: string): T | undefined {
    const entry = this.entries.get(key);
    return entry && entry.validUntil > Date.now() && this.changes.listening ? entry.value : undefined;
  }

  /** The ready answer for `key`, if there is one, counted as a hit (a lookup before routing). */
  serve(key: string): T | undefined {
    const ready = this.peek(key);
    if (ready !== undefined) this.limits.observe?.('hit');
    return ready;
  }

  /**
   * The answer for `key`: ready, or built now. `build` may say how long its answer holds
   * (`validUntil`, a time in ms); it holds at most `maxAgeMs` in any case.
   */
  async get(
    key: string,
    build: () => Promise<{ value: T; validUntil?: number }>,
    /** A second key the answer is kept under too (the raw request URL, for a lookup before routing). */
    alias?: string,
  ): Promise<T> {
    const ready = this.peek(key);
    this.limits.observe?.(ready !== undefined ? 'hit' : 'miss');
    if (ready !== undefined) {
      if (alias) this.entries.set(alias, this.entries.get(key)!);
      return ready;
    }
    const generation = this.generation;
    let pending = this.building.get(key);
    if (!pending) {
      const startedAt = Date.now();
      pending = build()
        .then(({ value, validUntil }) => ({
          value,
          validUntil: Math.min(startedAt + this.limits.maxAgeMs, validUntil ?? Number.POSITIVE_INFINITY),
        }))
        .finally(() => {
          if (this.building.get(key) === pending) this.building.delete(key);
        });
      this.building.set(key, pending);
    }
    const entry = await pending;
    if (this.changes.listening && generation === this.generation) {
      if (this.entries.size >= this.limits.maxEntries) this.entries.clear();
      this.entries.set(key, entry);
      if (alias) this.entries.set(alias, entry);
    }
    return entry.value;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.building.clear();
  }
}
