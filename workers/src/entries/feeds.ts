/** The feed runs the workers process. */
export { FeedRunJobs } from '../feeds/feed-run-jobs.js';
