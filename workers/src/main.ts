import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadEnvironmentOrExit } from '@offers/api/infrastructure/config/environment';
import { boundShutdown } from '@offers/api/infrastructure/platform/shutdown';
import { Logger } from 'nestjs-pino';
import { eventConsumers } from './consumers.js';
import { InFlightJobs } from './shutdown/in-flight-jobs.js';
import { parseWorkerRoles, WorkersModule } from './workers.module.js';

process.env.SERVICE_NAME ??= 'workers';
const environment = loadEnvironmentOrExit();
const roles = parseWorkerRoles(environment.WORKER_ROLES);

const app = await NestFactory.createApplicationContext(
  WorkersModule.forRoot(environment, { roles, consumers: eventConsumers }),
  { bufferLogs: true },
);
const logger = app.get(Logger);
app.useLogger(logger);
app.enableShutdownHooks();
boundShutdown(
  environment.SHUTDOWN_GRACE_MS,
  async () => {
    const handedBack = await app.get(InFlightJobs).handBack();
    return `Stopped after ${environment.SHUTDOWN_GRACE_MS} ms: handed ${handedBack} running jobs back to their queues`;
  },
  (line) => logger.warn(line, 'Shutdown'),
);
await app.init();
logger.log(`Workers running: ${roles.join(', ')}`, 'Workers');
