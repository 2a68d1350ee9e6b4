import { Injectable } from '@nestjs/common';
import type { PublishedEvent } from '@offers/api/events';
import {
  countIntoDailyFigures,
  DAILY_FIGURE_EVENTS,
  DAILY_FIGURES_CONSUMER,
  emptyDailyFigures,
} from '@offers/api/read-models';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Keeps `daily_figures`, the dashboards' counts and amounts per India's day, merchant and coupon:
 * each event adds to its day's rows. The inbox row written in the same transaction makes a
 * redelivered event count once; `projections:rebuild` empties the table and counts the log again.
 */
@Injectable()
export class DailyFiguresProjection implements EventConsumer {
  readonly name = DAILY_FIGURES_CONSUMER;
  readonly handles = DAILY_FIGURE_EVENTS;

  handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    return this.handleLot([event], manager);
  }

  /** A lot at once: its additions summed per row, the rows taken in one order (no deadlock between lots). */
  handleLot(events: PublishedEvent[], manager: EntityManager): Promise<void> {
    return countIntoDailyFigures(events, manager);
  }

  reset(manager: EntityManager): Promise<void> {
    return emptyDailyFigures(manager);
  }
}
