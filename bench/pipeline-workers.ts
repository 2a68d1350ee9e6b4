/**
 * The workers side of the event pipeline benchmark, started by bench/events.ts in a process of its
 * own, as `node workers/dist/src/main.js` runs in production: `WorkersModule` with the roles in
 * WORKER_ROLES (the bench sets relay,events) and, as its only consumer, a bench projection.
 *
 * Settings: the product's environment variables (DATABASE_URL, REDIS_URL, QUEUE_PREFIX,
 * EVENT_CONCURRENCY, ...), passed by the bench.
 */
import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { validateEnvironment } from '@offers/api/infrastructure/config/environment';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventConsumer } from '../workers/src/events/event-consumer.js';
import { parseWorkerRoles, WorkersModule } from '../workers/src/workers.module.js';
import { exitUnlessStartedByBench, serveBench } from './processes.js';
import { BENCH_EVENT, measureProcess } from './shared.js';

/** Events the projection has handled (each once, should a lot be applied again after a failure). */
const handled = new Set<string>();

/**
 * Writes one read-model row per event, a lot's rows in one statement as the product's projections
 * write theirs (`handleLot`). `applied_at` is PostgreSQL's `clock_timestamp()` when the rows are
 * written, inside the consumer's transaction, just before it commits.
 */
@Injectable()
class BenchProjection implements EventConsumer {
  readonly name = 'bench-projection';
  readonly handles = [BENCH_EVENT];

  handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    return this.handleLot([event], manager);
  }

  async handleLot(events: PublishedEvent[], manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO bench_item_view (id, seq, occurred_at, applied_at)
       SELECT id, seq, occurred_at, clock_timestamp()
       FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS e(id, seq, occurred_at)`,
      [
        events.map((event) => event.aggregateId),
        events.map((event) => (event.payload as { seq: number }).seq),
        events.map((event) => event.occurredAt),
      ],
    );
    for (const event of events) handled.add(event.id);
  }
}

process.env.SERVICE_NAME ??= 'bench-workers';
exitUnlessStartedByBench();
const environment = validateEnvironment(process.env);
const app = await NestFactory.createApplicationContext(
  WorkersModule.forRoot(environment, {
    roles: parseWorkerRoles(environment.WORKER_ROLES),
    consumers: [BenchProjection],
  }),
  { logger: ['error', 'warn'] },
);
const dataSource = app.get<DataSource>(getDataSourceToken());

serveBench({
  progress: () => handled.size,
  measure: () => measureProcess(dataSource),
  close: () => app.close(),
});
