/** The outbox relay, the dispatcher and its inbox, event consumers, outcomes, projection rebuild. */
export type { EventConsumer } from '../events/event-consumer.js';
export { applyOnce, EventDispatcher } from '../events/event-dispatcher.js';
export { markProcessed } from '../events/event-outcomes.js';
export { OutboxPublisher, OutboxRelay } from '../events/outbox-relay.js';
export { outboxPublisher } from '../events/outbox-relay.service.js';
export { rebuildProjection } from '../events/projection-rebuild.js';
