import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { OperationsModule } from './operations.module.js';

@Module({
  imports: [OperationsModule.forRoot('api')],
  controllers: [HealthController],
})
export class HealthModule {}
