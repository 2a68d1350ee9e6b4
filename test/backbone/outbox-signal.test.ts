import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { outboxSignalChannel } from '@offers/api/infrastructure/events/outbox-signal';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import {
  closeRedisConnection,
  createRedisConnection,
} from '@offers/api/infrastructure/redis/redis-connection';
import type { Redis } from 'ioredis';
import { OutboxRelay } from '../../workers/src/events/outbox-relay.js';
import { outboxPublisher } from '../../workers/src/events/outbox-relay.service.js';
import { createLedgerTables, LedgerProjection, RecordEntry } from '../support/ledger.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

// The relay under test polls once a minute: whatever it publishes sooner, a commit's signal woke it for.
const POLL_MS = 60_000;
const silent = { log: () => undefined, warn: () => undefined };

let test: TestEnvironment;
let workers: WorkersApp;
let connection: Redis;
let subscriber: Redis;
let relay: OutboxRelay;

beforeAll(async () => {
  test = await createTestEnvironment('outbox-signal');
  // No relay role: the one relay is the slow-polling one below.
  workers = await startWorkers(test.environment, ['events'], [LedgerProjection]);
  await createLedgerTables(workers.dataSource);
  connection = createRedisConnection(test.environment.REDIS_URL, 'client');
  subscriber = createRedisConnection(test.environment.REDIS_URL, 'worker');
  relay = new OutboxRelay(
    outboxPublisher(workers.dataSource, workers.module.get(QueueRegistry), test.environment),
    connection,
    subscriber,
    `${test.environment.QUEUE_PREFIX}:outbox-relay:epoch`,
    silent,
    { signalChannel: outboxSignalChannel(test.environment.QUEUE_PREFIX), pollIntervalMs: POLL_MS },
  );
  relay.start();
});

afterAll(async () => {
  await relay?.stop();
  closeRedisConnection(connection);
  closeRedisConnection(subscriber);
  await workers?.close();
  await test?.cleanup();
});

const published = async (aggregateId: string) =>
  (
    await workers.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = $1 AND published_at IS NOT NULL',
      [aggregateId],
    )
  )[0].n === 1;

const applied = async (entryId: string) =>
  (await workers.dataSource.query('SELECT 1 FROM ledger_applied WHERE entry_id = $1', [entryId])).length ===
  1;

describe('the outbox relay', () => {
  it('publishes a committed event when the commit signals it, long before its poll', async () => {
    // Once this one is published, the relay waits: for a signal, or a minute.
    const first = await workers.commands.execute(new RecordEntry(1));
    await eventually(() => published(first), 'the relay to publish the first event', POLL_MS / 2);

    const startedAt = Date.now();
    for (let amount = 2; amount <= 6; amount++) {
      const entryId = await workers.commands.execute(new RecordEntry(amount));
      await eventually(() => published(entryId), `the signal to publish entry ${amount}`, POLL_MS / 2);
      await eventually(() => applied(entryId), `the consumer to apply entry ${amount}`, POLL_MS / 2);
    }
    // Five commits, each published on its signal: no wait for the poll came in between.
    expect(Date.now() - startedAt).toBeLessThan(POLL_MS);
  });

  it('hears signals again after its Redis connection was dropped', async () => {
    await eventually(
      async () =>
        (await connection.pubsub('NUMSUB', outboxSignalChannel(test.environment.QUEUE_PREFIX)))[1] === 1,
      'the relay to subscribe',
    );
    // ioredis reconnects and subscribes again; the reconnect itself starts a pass.
    subscriber.disconnect(true);
    await eventually(async () => subscriber.status === 'ready', 'the subscriber to reconnect');
    await eventually(
      async () =>
        (await connection.pubsub('NUMSUB', outboxSignalChannel(test.environment.QUEUE_PREFIX)))[1] === 1,
      'the relay to subscribe again',
    );
    // Past the reconnect's own pass: only a signal can wake the relay now.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const entryId = await workers.commands.execute(new RecordEntry(7));
    await eventually(() => published(entryId), 'the signal to publish the event', POLL_MS / 2);
  });
});
