import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { loadEnvironmentOrExit } from './config/environment.js';
import { configureHttpApp, createHttpAdapter } from './http/configure-app.js';

process.env.SERVICE_NAME ??= 'api';
const environment = loadEnvironmentOrExit();

const app = await NestFactory.create<NestFastifyApplication>(
  AppModule.forRoot(environment),
  createHttpAdapter(),
  { bufferLogs: true },
);
await configureHttpApp(app);
app.enableShutdownHooks();
await app.listen(environment.PORT, environment.HOST);
