/**
 * Bounds a process's stop. On SIGTERM (or SIGINT) Nest closes the application: the API stops
 * accepting connections and lets running requests finish, the workers stop taking jobs and let
 * running ones finish. Whatever still runs after `graceMs` is dealt with by `overrun` (the API
 * answers it 503, the workers hand their jobs back to the queues), and the process exits, so an
 * orchestrator's SIGKILL never catches it half way.
 */
export function boundShutdown(
  graceMs: number,
  overrun: () => Promise<string>,
  log: (line: string) => void,
): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      const timer = setTimeout(() => {
        void overrun()
          .then(log, (error: Error) => log(`Stopping after ${graceMs} ms failed: ${error.message}`))
          .finally(() => process.exit(0));
      }, graceMs);
      timer.unref();
    });
  }
}
