export * from './feed-row.js';
export { type FetchFeedOptions, feedLimits, fetchFeed } from './fetch-feed.js';
export { csvMappingProblems } from './presets.js';
export { type ReadFeedOptions, readFeed } from './read-feed.js';
