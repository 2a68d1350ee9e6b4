/** What a process or a test stands on: settings, data sources and migrations, the outbox and queues, Redis, HTTP, health, metrics, modules. */
export { AppModule } from '../app.module.js';
export { CouponCommandsModule } from '../coupons/coupons.module.js';
export { featureEntities } from '../entities.js';
export {
  ConfigurationError,
  Environment,
  loadEnvironmentOrExit,
  validateEnvironment,
} from '../infrastructure/config/environment.js';
export { dataSourceOptions, poolLimits } from '../infrastructure/database/data-source-options.js';
export {
  createDatabaseFromTemplate,
  createDatabaseIfMissing,
  dropDatabase,
  migrateDatabase,
} from '../infrastructure/database/database-setup.js';
export { migrations } from '../infrastructure/database/migrations/index.js';
export { preparedStatement, runPrepared } from '../infrastructure/database/prepared-statements.js';
export { ChangeListener } from '../infrastructure/events/change-listener.js';
export { forgetInbox, purgeHandledInbox, recordInInbox } from '../infrastructure/events/inbox-store.js';
export { outboxBacklog } from '../infrastructure/events/outbox-backlog.js';
export { outboxSignalChannel } from '../infrastructure/events/outbox-signal.js';
export {
  emptyOutbox,
  markEventFailed,
  markEventsProcessed,
  markEventsPublished,
} from '../infrastructure/events/outbox-store.js';
export type { OutboxLag, OutboxRow } from '../infrastructure/events/queries/outbox.js';
export {
  claimUnprocessedEvents,
  claimUnpublishedEvents,
  eventsOfTypesAfter,
  outboxEventCount,
  outboxLag,
  outboxWaiting,
} from '../infrastructure/events/queries/outbox.js';
export { ReadyCache } from '../infrastructure/events/ready-cache.js';
export { appendToOutbox, UnitOfWork } from '../infrastructure/events/unit-of-work.js';
export { OperationsModule, OperationsService } from '../infrastructure/health/operations.module.js';
export { LOCK_WAITS } from '../infrastructure/health/queries/readiness.js';
export { ReadinessProbe } from '../infrastructure/health/readiness.js';
export type { RouteSummary } from '../infrastructure/http/configure-app.js';
export {
  configureHttpApp,
  createHttpAdapter,
  registeredRoutes,
} from '../infrastructure/http/configure-app.js';
export { INTERNAL_ERROR_MESSAGE } from '../infrastructure/http/error-filter.js';
export { escapeHtml } from '../infrastructure/http/html.js';
export { INVALID_INPUT_MESSAGE } from '../infrastructure/http/validation.js';
export { purgeIdempotencyKeys } from '../infrastructure/idempotency/idempotency-store.js';
export { PRODUCER_REDIS, QueueRegistry } from '../infrastructure/jobs/queue-registry.js';
export type { RetryPolicy, ScheduledJobName } from '../infrastructure/jobs/queues.js';
export {
  domainEventJobOptions,
  FEED_IMPORT_ATTEMPTS,
  feedImportJobOptions,
  QueueName,
  ScheduledJob,
  workerLockOptions,
} from '../infrastructure/jobs/queues.js';
export { Metrics } from '../infrastructure/metrics/metrics.js';
export { PlatformModule } from '../infrastructure/platform/platform.module.js';
export { boundShutdown } from '../infrastructure/platform/shutdown.js';
export {
  closeRedisConnection,
  createRedisConnection,
  deleteKeysUnder,
} from '../infrastructure/redis/redis-connection.js';
