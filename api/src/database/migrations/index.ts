import { EventLog1763856000000 } from './1763856000000-event-log.js';

/** Every migration, oldest first. */
export const migrations = [EventLog1763856000000];
