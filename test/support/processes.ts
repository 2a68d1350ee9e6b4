import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a built entry point (`dist/...`, or node's arguments ending with one) with the given
 * settings from `cwd` (the repository, or a copy of it), capturing its output.
 */
export function startNode(
  script: string | string[],
  variables: Record<string, string>,
  cwd = ROOT,
): RunningProcess {
  const child = spawn(process.execPath, typeof script === 'string' ? [script] : script, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...variables },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A Redis server of the test's own, so stopping it disturbs nobody else. */
export class DisposableRedis {
  private process?: ChildProcess;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.process = child;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        log += chunk;
        if (log.includes('Ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${log}`)));
    });
  }

  /** Kills the server outright: no goodbye to its clients, nothing kept. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    this.process = undefined;
  }
}
