import type { EntityManager } from 'typeorm';
import { advertiserStore, categoryIdsFor, noteUnmappedAdvertiser } from '../queries/advertisers.js';

/**
 * Which store of ours a network's advertiser is, and which of our categories its category names
 * are: the import asks this for every row. The advertisers feature answers it from the admins'
 * mapping (`advertiserStore`, `noteUnmappedAdvertiser`, `categoryIdsFor`); the import reads the
 * mapping afresh each run, so an advertiser mapped since the last run flows on the next.
 */
export interface AdvertiserDirectory {
  /** The store (merchant id) the source's advertiser is mapped to, or null while it is not. */
  storeOf(manager: EntityManager, sourceId: number, advertiserId: string): Promise<number | null>;
  /** Notes an advertiser not mapped yet, with the rows of this run that wait for it. */
  noteUnmapped(
    manager: EntityManager,
    sourceId: number,
    advertiser: { id: string; name: string | null; siteUrl: string | null },
    rowsWaiting: number,
  ): Promise<void>;
  /** Our categories for the network's category names (unknown names give none). */
  categoryIdsFor(manager: EntityManager, sourceId: number, names: readonly string[]): Promise<number[]>;
}

/** The Nest token of the directory the import uses. */
export const ADVERTISER_DIRECTORY = Symbol('AdvertiserDirectory');

/** The directory of the admins' mapping, kept in `feed_advertisers`. */
export const FEED_ADVERTISERS: AdvertiserDirectory = {
  storeOf: advertiserStore,
  noteUnmapped: noteUnmappedAdvertiser,
  categoryIdsFor,
};
