/** The job of the `feed-imports` queue: the run to import. */
export interface FeedImportJob {
  runId: number;
}

/**
 * One job id per run (`run-<id>`), and one more once an admin accepted a run that waited: the
 * first job may still be held (completed or finishing) when the run goes on.
 */
export function feedImportJobId(runId: number, accepted = false): string {
  return accepted ? `run-${runId}-accepted` : `run-${runId}`;
}
