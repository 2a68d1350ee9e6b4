import { InboxEntry, OutboxEvent } from '../events/outbox-event.entity.js';

/** Every entity of the product; TypeORM under ESM takes classes, not globs. */
export const entities = [OutboxEvent, InboxEntry];
