import type { Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Test, type TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Environment } from '@offers/api/infrastructure/config/environment';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import { QueueName } from '@offers/api/infrastructure/jobs/queues';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { EventConsumer } from '../../workers/src/events/event-consumer.js';
import { type WorkerRole, WorkersModule } from '../../workers/src/workers.module.js';
import { RecordEntryHandler } from './ledger.js';

export interface WorkersApp {
  module: TestingModule;
  commands: CommandBus;
  dataSource: DataSource;
  domainEvents: Queue;
  close(): Promise<void>;
}

/** The real workers module, in this process, with the ledger command available. */
export async function startWorkers(
  environment: Environment,
  roles: WorkerRole[],
  consumers: Type<EventConsumer>[],
  /** Providers of the workers replaced by the test's (a token and the value used instead). */
  overrides: Array<{ provide: unknown; useValue: unknown }> = [],
): Promise<WorkersApp> {
  let builder = Test.createTestingModule({
    imports: [WorkersModule.forRoot(environment, { roles, consumers })],
    providers: [RecordEntryHandler],
  });
  for (const { provide, useValue } of overrides) {
    builder = builder.overrideProvider(provide).useValue(useValue);
  }
  const module = await builder
    .setLogger({
      log: () => undefined,
      warn: () => undefined,
      error: (...args: unknown[]) => console.error(...args),
    })
    .compile();
  module.enableShutdownHooks();
  await module.init();
  return {
    module,
    commands: module.get(CommandBus),
    dataSource: module.get<DataSource>(getDataSourceToken()),
    domainEvents: module.get(QueueRegistry).get(QueueName.DomainEvents),
    close: () => module.close(),
  };
}
