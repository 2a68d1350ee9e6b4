import { Injectable } from '@nestjs/common';
import { CONTENT_EVENTS, HOME_CONTENT_CHANNEL, type PublishedEvent } from '@offers/api/events';
import { buildHomeContent, replaceHomeContent } from '@offers/api/read-models';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Keeps `home_content`, the document of curated content the public reads. Content changes are
 * rare and the document small, so each event rebuilds it whole from the content tables: events
 * arriving out of order or twice leave the same document.
 */
@Injectable()
export class HomeContentProjection implements EventConsumer {
  readonly name = 'home-content';
  readonly handles = CONTENT_EVENTS;

  async handle(_event: PublishedEvent, manager: EntityManager): Promise<void> {
    await this.rebuild(manager);
  }

  /** A lot of content changes (an editor's burst of saves) is one rebuild. */
  async handleLot(_events: PublishedEvent[], manager: EntityManager): Promise<void> {
    await this.rebuild(manager);
  }

  async reset(manager: EntityManager): Promise<void> {
    await this.rebuild(manager);
  }

  private async rebuild(manager: EntityManager): Promise<void> {
    await replaceHomeContent(manager, await buildHomeContent(manager));
    // Delivered when this transaction commits: every API process drops its ready answers then.
    await manager.query(`SELECT pg_notify('${HOME_CONTENT_CHANNEL}', '')`);
  }
}
