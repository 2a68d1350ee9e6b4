import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

const FLUSH_DELAY_MS = 20;

/**
 * Writes back to the outbox what became of each event. "Processed" marks are batched: losing a
 * batch in a crash only means those events are offered again later, and their consumers skip them.
 */
@Injectable()
export class EventOutcomes implements OnApplicationShutdown {
  private readonly logger = new Logger(EventOutcomes.name);
  private pending: string[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  processed(eventId: string): void {
    this.pending.push(eventId);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  async failed(eventId: string, error: string): Promise<void> {
    await this.dataSource.query('UPDATE outbox SET failed_at = now(), last_error = $2 WHERE id = $1', [
      eventId,
      error.slice(0, 2000),
    ]);
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.pending;
    this.pending = [];
    if (ids.length === 0) return this.flushing;
    this.flushing = this.flushing
      .then(() =>
        this.dataSource.query(
          'UPDATE outbox SET processed_at = now(), failed_at = NULL WHERE id = ANY($1::uuid[])',
          [ids],
        ),
      )
      .then(
        () => undefined,
        (error: Error) => this.logger.warn(`Could not mark ${ids.length} events processed: ${error.message}`),
      );
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
