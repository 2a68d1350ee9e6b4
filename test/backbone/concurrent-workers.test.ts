import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { appliedCount, createLedgerTables, LedgerProjection, RecordEntry } from '../support/ledger.js';
import { type RunningProcess, startNode } from '../support/processes.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let test: TestEnvironment;
let commands: WorkersApp;
const consumers: WorkersApp[] = [];
const relays: RunningProcess[] = [];

beforeAll(async () => {
  test = await createTestEnvironment('concurrent workers');
  commands = await startWorkers(test.environment, [], []);
  await createLedgerTables(commands.dataSource);
  for (let i = 0; i < 2; i += 1) {
    relays.push(startNode('workers/dist/src/main.js', { ...test.variables, WORKER_ROLES: 'relay' }));
    consumers.push(await startWorkers(test.environment, ['events'], [LedgerProjection]));
  }
});

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.stop('SIGKILL')));
  await Promise.all(consumers.map((consumer) => consumer.close()));
  await commands?.close();
  await test?.cleanup();
});

it('publishes and applies every event once with two relays and two consumers at work', async () => {
  const total = 300;
  const inFlight = 10;
  let issued = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total) {
        issued += 1;
        await commands.commands.execute(new RecordEntry(issued));
      }
    }),
  );
  // One relay dies while the events drain; the other carries on.
  await relays[0]!.stop('SIGKILL');

  await eventually(
    async () => (await appliedCount(commands.dataSource, 'ledger-projection')) === total,
    `all ${total} events to be applied`,
    30_000,
  );
  const [applied] = await commands.dataSource.query(
    'SELECT count(*)::int AS total, count(DISTINCT event_id)::int AS distinct_events FROM ledger_applied',
  );
  expect(applied).toEqual({ total, distinct_events: total });
  // An event is marked processed in its own transaction before its job completes, so the last
  // jobs finish just after the last marks.
  const jobCounts = () => commands.domainEvents.getJobCounts('completed', 'waiting', 'active', 'failed');
  await eventually(
    async () => (await jobCounts()).completed === total,
    `all ${total} jobs to complete`,
    10_000,
  );
  expect(await jobCounts()).toEqual({ completed: total, waiting: 0, active: 0, failed: 0 });
  const perConsumer = await Promise.all(
    consumers.map(async (consumer) => consumer.module.get(LedgerProjection).calls.length),
  );
  expect(perConsumer.reduce((sum, calls) => sum + calls, 0)).toBe(total);
});
