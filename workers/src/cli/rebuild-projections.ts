import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { loadEnvironmentOrExit } from '@offers/api/infrastructure/config/environment';
import type { DataSource } from 'typeorm';
import { eventConsumers } from '../consumers.js';
import { EventDispatcher } from '../events/event-dispatcher.js';
import { rebuildProjection } from '../events/projection-rebuild.js';
import { WorkersModule } from '../workers.module.js';

process.env.SERVICE_NAME ??= 'projections-rebuild';
const environment = loadEnvironmentOrExit();
const app = await NestFactory.createApplicationContext(
  WorkersModule.forRoot(environment, { roles: [], consumers: eventConsumers }),
  { logger: ['error', 'warn'] },
);
try {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const projections = app.get(EventDispatcher).consumers.filter((consumer) => consumer.reset);
  if (projections.length === 0) console.log('No read models to rebuild.');
  for (const projection of projections) {
    const started = Date.now();
    const applied = await rebuildProjection(dataSource, projection);
    console.log(`${projection.name}: replayed ${applied} events in ${Date.now() - started} ms`);
  }
} finally {
  await app.close();
}
