import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './processes.js';

export interface PgBouncer {
  /** The pooler's address without a database (`postgres://postgres@127.0.0.1:<port>`). */
  url: string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction pooling mode in front of the test PostgreSQL: the run's own (.ci/run's
 * second pass starts one and names it in TEST_DATABASE_POOLED_SERVER_URL), or else one of this
 * test file's, started with the same script and configuration.
 */
export async function pgBouncer(): Promise<PgBouncer> {
  const shared = process.env.TEST_DATABASE_POOLED_SERVER_URL;
  if (shared) return { url: shared, stop: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  const { stdout } = await promisify(execFile)(join(ROOT, '.ci', 'pgbouncer.sh'), [dir]);
  return {
    url: stdout.trim(),
    async stop() {
      try {
        process.kill(Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8')), 'SIGTERM');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
