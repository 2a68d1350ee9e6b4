/**
 * The worker processes of the event benchmark: how bench/events.ts starts, drives and stops them,
 * and how they answer. They talk over Node's IPC channel:
 *
 * - the worker process says `ready` once it consumes, then reports `progress` (how many jobs or
 *   events it handled so far) every few milliseconds while the count changes;
 * - the bench asks `measure-start` / `measure-stop` around a measured phase (the worker process
 *   answers with its own load) and `report` for what it recorded, if anything;
 * - SIGTERM or SIGINT (Ctrl-C reaches the whole process group), or the bench going away, makes it
 *   close its queues and connections and exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
/** Includes compiling the TypeScript sources on the fly. */
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const PROGRESS_INTERVAL_MS = 10;

export type Request = 'measure-start' | 'measure-stop' | 'report';

type ToChild = { type: 'request'; request: Request };
type FromChild =
  | { type: 'ready' }
  | { type: 'progress'; count: number }
  | { type: 'reply'; request: Request; value: unknown };

// ---------------------------------------------------------------------------------------------
// Bench side

const running = new Set<WorkerProcess>();

/** A worker process started by the bench. */
export class WorkerProcess {
  private count = 0;
  private lastProgressAt = Date.now();
  private exitReason?: string;
  private readonly exited: Promise<void>;
  private readonly replies = new Map<Request, (value: unknown) => void>();
  private readonly exitWaiters = new Set<(reason: string) => void>();

  private constructor(
    readonly label: string,
    private readonly child: ChildProcess,
  ) {
    let resolveExited: () => void;
    this.exited = new Promise((resolve) => {
      resolveExited = resolve;
    });
    const ended = (reason: string) => {
      if (this.exitReason !== undefined) return;
      this.exitReason = reason;
      running.delete(this);
      for (const fail of this.exitWaiters) fail(reason);
      resolveExited();
    };
    child.once('exit', (code, signal) =>
      ended(signal ? `was killed by ${signal}` : `exited with code ${code}`),
    );
    // Without a pid the process never started, and no exit follows; other errors come with one.
    child.on('error', (error) => child.pid === undefined && ended(`could not start: ${error.message}`));
    child.on('message', (message: FromChild) => {
      if (message.type === 'progress') {
        if (message.count > this.count) this.lastProgressAt = Date.now();
        this.count = message.count;
      } else if (message.type === 'reply') {
        this.replies.get(message.request)?.(message.value);
        this.replies.delete(message.request);
      }
    });
  }

  /**
   * Runs `node --import @swc-node/register/esm-register <script>` from the repository root with
   * `environment` added to this process's environment, and waits until it reports ready.
   */
  static async start(
    label: string,
    script: string,
    environment: Record<string, string>,
  ): Promise<WorkerProcess> {
    // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of each child (open it in Chrome's DevTools).
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const child = spawn(
      process.execPath,
      [...profile, '--import', '@swc-node/register/esm-register', script],
      {
        cwd: REPOSITORY,
        env: { ...process.env, ...environment },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const worker = new WorkerProcess(label, child);
    running.add(worker);
    try {
      await worker.until(
        (done) => {
          const onMessage = (message: FromChild) => message.type === 'ready' && done();
          child.on('message', onMessage);
          return () => child.off('message', onMessage);
        },
        READY_TIMEOUT_MS,
        'to be ready',
      );
    } catch (error) {
      await worker.stop();
      throw error;
    }
    return worker;
  }

  /** Jobs or events handled so far, as last reported. */
  get progress(): number {
    return this.count;
  }

  /** Resolves once `count` were handled; fails if the count stalls for `stallMs` or the process ends. */
  waitForProgress(count: number, what: string, stallMs: number): Promise<void> {
    this.lastProgressAt = Date.now();
    return this.until(
      (done, fail) => {
        const check = () => this.count >= count && done();
        const watchdog = setInterval(() => {
          if (Date.now() - this.lastProgressAt < stallMs) return;
          fail(new Error(`${what}: stalled at ${this.count} of ${count} after ${stallMs} ms`));
        }, 1000);
        this.child.on('message', check);
        check();
        return () => {
          clearInterval(watchdog);
          this.child.off('message', check);
        };
      },
      Number.POSITIVE_INFINITY,
      `to handle ${count}`,
    );
  }

  request<T>(request: Request): Promise<T> {
    return this.until<T>(
      (done) => {
        this.replies.set(request, (value) => done(value as T));
        this.child.send({ type: 'request', request } satisfies ToChild, (error) => {
          // The channel closes when the process exits; the exit is reported on its own.
          if (error && this.exitReason === undefined) console.error(`${this.label}: ${error.message}`);
        });
        return () => this.replies.delete(request);
      },
      STOP_TIMEOUT_MS,
      `to answer ${request}`,
    );
  }

  /** Asks the process to close and waits for it to exit; kills it if it does not in time. */
  async stop(): Promise<void> {
    if (this.exitReason === undefined) this.child.kill('SIGTERM');
    const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS, true).unref());
    if (await Promise.race([this.exited.then(() => false), timeout])) {
      console.error(`${this.label} process did not stop within ${STOP_TIMEOUT_MS} ms; killing it`);
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** Waits for `start` to call `done`, failing if the process exits first or after `timeoutMs`. */
  private until<T = void>(
    start: (done: (value: T) => void, fail: (error: Error) => void) => (() => void) | undefined,
    timeoutMs: number,
    what: string,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let finish: (() => void) | undefined;
      const onExit = (reason: string) => fail(new Error(`${this.label} process ${reason}`));
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(
            () => fail(new Error(`${this.label} process took over ${timeoutMs} ms ${what}`)),
            timeoutMs,
          )
        : undefined;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        this.exitWaiters.delete(onExit);
        finish?.();
      };
      const done = (value: T) => {
        if (settled) return;
        settle();
        resolve(value);
      };
      const fail = (error: Error) => {
        if (settled) return;
        settle();
        reject(error);
      };
      if (this.exitReason !== undefined) return onExit(this.exitReason);
      this.exitWaiters.add(onExit);
      finish = start(done, fail);
      // `start` may have finished the wait already.
      if (settled) finish?.();
    });
  }
}

/** Stops every worker process still running (on failure or Ctrl-C). */
export async function stopWorkerProcesses(): Promise<void> {
  await Promise.all([...running].map((worker) => worker.stop()));
}

// ---------------------------------------------------------------------------------------------
// Worker process side

export interface WorkerRole {
  /** Jobs or events handled so far. */
  progress(): number;
  /** Starts measuring a phase; the returned function ends it and gives what to send back. */
  measure(): () => unknown;
  /** What the process recorded, sent back on `report`. */
  report?(): unknown;
  /** Closes queues, connections and pools. */
  close(): Promise<void>;
}

/** Ends this process at once unless bench/events.ts started it (there is nobody to report to). */
export function exitUnlessStartedByBench(): void {
  if (process.send) return;
  console.error('This script is started by bench/events.ts (npm run bench:events), which it reports to.');
  process.exit(1);
}

/** Tells the bench this process is ready and serves its requests until asked to stop. */
export function serveBench(role: WorkerRole): void {
  exitUnlessStartedByBench();
  const send = process.send!.bind(process);
  const post = (message: FromChild) => {
    if (process.connected) send(message, undefined, undefined, () => undefined);
  };

  let sent = -1;
  const progress = setInterval(() => {
    const count = role.progress();
    if (count !== sent) post({ type: 'progress', count });
    sent = count;
  }, PROGRESS_INTERVAL_MS);

  let endMeasure: (() => unknown) | undefined;
  process.on('message', (message: ToChild) => {
    if (message.type !== 'request') return;
    let value: unknown;
    if (message.request === 'measure-start') endMeasure = role.measure();
    else if (message.request === 'measure-stop') {
      value = endMeasure?.();
      endMeasure = undefined;
    } else value = role.report?.();
    post({ type: 'reply', request: message.request, value });
  });

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    clearInterval(progress);
    role.close().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`closing: ${error.stack ?? error.message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.once('disconnect', shutdown);
  post({ type: 'ready' });
}
