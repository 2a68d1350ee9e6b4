import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadEnvironmentOrExit } from '../../api/src/config/environment.js';
import { eventConsumers } from './consumers.js';
import { parseWorkerRoles, WorkersModule } from './workers.module.js';

process.env.SERVICE_NAME ??= 'workers';
const environment = loadEnvironmentOrExit();
const roles = parseWorkerRoles(environment.WORKER_ROLES);

const app = await NestFactory.createApplicationContext(
  WorkersModule.forRoot(environment, { roles, consumers: eventConsumers }),
  { bufferLogs: true },
);
app.useLogger(app.get(Logger));
app.enableShutdownHooks();
await app.init();
app.get(Logger).log(`Workers running: ${roles.join(', ')}`, 'Workers');
