/** How often a screen showing a queued or running run asks for it again, until it stops. */
const UNDERWAY_REFRESH_MS = 2000;

const isUnderway = (run: Record<string, unknown>) => run.status === 'queued' || run.status === 'running';

/**
 * A react-query `refetchInterval` for screens of runs: read again while one shown is underway, so
 * the admin sees it finish without reloading; not at all once none is.
 */
export const whileUnderway = (runs: ReadonlyArray<Record<string, unknown>> | undefined) =>
  runs?.some(isUnderway) ? UNDERWAY_REFRESH_MS : false;
