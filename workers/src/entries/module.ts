/** The workers process: its Nest module. */

export type { WorkerRole } from '../workers.module.js';
export { parseWorkerRoles, WorkersModule } from '../workers.module.js';
