import { Injectable } from '@nestjs/common';
import { emptyDailyFigures } from '@offers/api/analytics/daily-figures-store';
import {
  countIntoDailyFigures,
  DAILY_FIGURE_EVENTS,
  DAILY_FIGURES_CONSUMER,
} from '@offers/api/analytics/queries/daily-figures';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
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
