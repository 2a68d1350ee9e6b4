/**
 * The server processes of the listing benchmark (the API, the bare server): started from the
 * repository root, watched so that a process that dies fails the run at once, stopped with
 * SIGTERM (and killed if it does not exit within 15 s), and measured through /proc.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const STOP_TIMEOUT_MS = 15_000;

const running = new Set<ServerProcess>();

export class ServerProcess {
  private exitReason?: string;
  private readonly exited: Promise<void>;
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
  }

  /** `node <args>` from the repository root, with `environment` added to this process's own. */
  static start(
    label: string,
    args: string[],
    environment: Record<string, string>,
    ipc = false,
  ): ServerProcess {
    // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the process (open it in Chrome's DevTools).
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const child = spawn(process.execPath, [...profile, ...args], {
      cwd: REPOSITORY,
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'inherit', 'inherit', ...(ipc ? (['ipc'] as const) : [])],
    });
    const server = new ServerProcess(label, child);
    running.add(server);
    return server;
  }

  get pid(): number | undefined {
    return this.exitReason === undefined ? this.child.pid : undefined;
  }

  /** Throws when the process is no longer running. */
  assertRunning(): void {
    if (this.exitReason !== undefined) throw new Error(`${this.label} process ${this.exitReason}`);
  }

  /** Sends `message` over IPC and waits for the first message back. */
  ask<T>(message: unknown, timeoutMs: number): Promise<T> {
    return this.race(
      new Promise<T>((resolve, reject) => {
        this.child.once('message', (reply) => resolve(reply as T));
        this.child.send(message as object, (error) => error && reject(error));
      }),
      timeoutMs,
      'to answer',
    );
  }

  /** Resolves as `work` does, failing if the process exits first or after `timeoutMs`. */
  race<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onExit = (reason: string) => finish(() => reject(new Error(`${this.label} process ${reason}`)));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${this.label} process took over ${timeoutMs} ms ${what}`))),
        timeoutMs,
      );
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.exitWaiters.delete(onExit);
        settle();
      };
      if (this.exitReason !== undefined) return onExit(this.exitReason);
      this.exitWaiters.add(onExit);
      work.then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
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
}

/** Stops every server process still running (at the end, on failure or Ctrl-C). */
export async function stopServerProcesses(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

/** Polls `url` until it answers 200; fails if `server` exits first or after `timeoutMs`. */
export async function waitForHealthy(server: ServerProcess, url: string, timeoutMs: number): Promise<void> {
  const poll = async () => {
    for (;;) {
      server.assertRunning();
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  await server.race(poll(), timeoutMs, `to answer ${url}`);
}

// ---------------------------------------------------------------------------------------------
// CPU time of another process, from /proc (Linux); undefined elsewhere.

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User plus system CPU time of process `pid` so far, in milliseconds. */
function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) may hold spaces; the fields after it are plain numbers.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
    return (ticks / clockTicks()) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * Starts measuring process `pid`; the returned function gives its CPU time over wall time since
 * then (1 = one core fully used), or undefined where /proc cannot be read.
 */
export function measureProcessCpu(pid: number | undefined): () => number | undefined {
  const before = pid === undefined ? undefined : cpuTimeMs(pid);
  const startedAt = performance.now();
  return () => {
    const after = pid === undefined ? undefined : cpuTimeMs(pid);
    if (before === undefined || after === undefined) return undefined;
    return (after - before) / (performance.now() - startedAt);
  };
}
