import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { loadEnvironmentOrExit } from './infrastructure/config/environment.js';
import { configureHttpApp, createHttpAdapter } from './infrastructure/http/configure-app.js';
import { answerPendingRequestsNow } from './infrastructure/http/request-deadline.js';
import { boundShutdown } from './infrastructure/platform/shutdown.js';

process.env.SERVICE_NAME ??= 'api';
const environment = loadEnvironmentOrExit();

const app = await NestFactory.create<NestFastifyApplication>(
  AppModule.forRoot(environment),
  createHttpAdapter(environment.TRUSTED_PROXIES),
  { bufferLogs: true },
);
await configureHttpApp(app);
app.enableShutdownHooks();
const logger = app.get(Logger);
boundShutdown(
  environment.SHUTDOWN_GRACE_MS,
  async () => {
    const answered = answerPendingRequestsNow();
    // Lets the 503s leave before the process ends.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return `Stopped after ${environment.SHUTDOWN_GRACE_MS} ms: answered ${answered} running requests with 503`;
  },
  (line) => logger.warn(line, 'Shutdown'),
);
await app.listen(environment.PORT, environment.HOST);
