import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { FeedFormat, FeedMode, FeedReviewPolicy, FeedRunTrigger } from '../../rules/feeds.js';
import type { FeedRunCounts } from '../queries/runs.js';

/**
 * A source's settings as its events carry them: never its credential (only whether one is set)
 * nor its postback secret, since the outbox is kept forever as the event log.
 */
export interface FeedSourceSettings {
  name: string;
  format: FeedFormat;
  url: string | null;
  scheduleMinutes: number | null;
  mode: FeedMode;
  slotId: number;
  reviewPolicy: FeedReviewPolicy;
  subIdParam: string;
  enabled: boolean;
  hasCredential: boolean;
}

export class FeedSourceCreated extends DomainEvent<FeedSourceSettings> {
  static readonly type = 'FeedSourceCreated';
  readonly type = FeedSourceCreated.type;
  readonly aggregateType = 'FeedSource';
  constructor(sourceId: number, settings: FeedSourceSettings) {
    super(String(sourceId), settings);
  }
}

/** A source's settings changed; `changed` names the fields (the credential as `credential`). */
export class FeedSourceUpdated extends DomainEvent<FeedSourceSettings & { changed: string[] }> {
  static readonly type = 'FeedSourceUpdated';
  readonly type = FeedSourceUpdated.type;
  readonly aggregateType = 'FeedSource';
  constructor(sourceId: number, settings: FeedSourceSettings, changed: string[]) {
    super(String(sourceId), { ...settings, changed });
  }
}

export class FeedSourceDeleted extends DomainEvent<{ name: string }> {
  static readonly type = 'FeedSourceDeleted';
  readonly type = FeedSourceDeleted.type;
  readonly aggregateType = 'FeedSource';
  constructor(sourceId: number, name: string) {
    super(String(sourceId), { name });
  }
}

/** The source's postback secret was replaced; the event never carries it. */
export class FeedPostbackSecretRotated extends DomainEvent<Record<string, never>> {
  static readonly type = 'FeedPostbackSecretRotated';
  readonly type = FeedPostbackSecretRotated.type;
  readonly aggregateType = 'FeedSource';
  constructor(sourceId: number) {
    super(String(sourceId), {});
  }
}

/**
 * A run was recorded, queued. Its consumer adds the import job (`feed-imports`, job id
 * `run-<id>`), so the job exists once the run's row does, whatever dies in between.
 */
export class FeedRunRequested extends DomainEvent<{
  sourceId: number;
  trigger: FeedRunTrigger;
  uploadBytes: number | null;
}> {
  static readonly type = 'FeedRunRequested';
  readonly type = FeedRunRequested.type;
  readonly aggregateType = 'FeedRun';
  constructor(runId: number, payload: FeedRunRequested['payload']) {
    super(String(runId), payload);
  }
}

/** An admin let a run that waited (it would end over half the source's coupons) go on. */
export class FeedRunAccepted extends DomainEvent<{ sourceId: number }> {
  static readonly type = 'FeedRunAccepted';
  readonly type = FeedRunAccepted.type;
  readonly aggregateType = 'FeedRun';
  constructor(runId: number, sourceId: number) {
    super(String(runId), { sourceId });
  }
}

/** An admin discarded a run that waited: it changes nothing more. */
export class FeedRunDiscarded extends DomainEvent<{ sourceId: number }> {
  static readonly type = 'FeedRunDiscarded';
  readonly type = FeedRunDiscarded.type;
  readonly aggregateType = 'FeedRun';
  constructor(runId: number, sourceId: number) {
    super(String(runId), { sourceId });
  }
}

/** A network's advertiser mapped to one of our stores (again, to another one); its rows flow next run. */
export class FeedAdvertiserMapped extends DomainEvent<{
  sourceId: number;
  advertiserId: string;
  merchantId: number;
  previousMerchantId: number | null;
  /** The store was created for it at the same time (a store without an account). */
  storeCreated: boolean;
}> {
  static readonly type = 'FeedAdvertiserMapped';
  readonly type = FeedAdvertiserMapped.type;
  readonly aggregateType = 'FeedAdvertiser';
}

/** A network's category of a source now stands for one of our categories (or none: null). */
export class FeedCategoryMapped extends DomainEvent<{
  sourceId: number;
  name: string;
  categoryId: number | null;
  previousCategoryId: number | null;
}> {
  static readonly type = 'FeedCategoryMapped';
  readonly type = FeedCategoryMapped.type;
  readonly aggregateType = 'FeedCategory';
}

/** A run ended: succeeded with its counts, or failed after its last attempt with its error. */
export class FeedRunFinished extends DomainEvent<{
  sourceId: number;
  status: 'succeeded' | 'failed';
  counts?: FeedRunCounts;
  error?: string;
}> {
  static readonly type = 'FeedRunFinished';
  readonly type = FeedRunFinished.type;
  readonly aggregateType = 'FeedRun';
  constructor(runId: number, payload: FeedRunFinished['payload']) {
    super(String(runId), payload);
  }
}

/** A full run would end over half of its source's live coupons: it ended none and waits for an admin. */
export class FeedRunHeld extends DomainEvent<{ sourceId: number; ending: number; live: number }> {
  static readonly type = 'FeedRunHeld';
  readonly type = FeedRunHeld.type;
  readonly aggregateType = 'FeedRun';
  constructor(runId: number, payload: FeedRunHeld['payload']) {
    super(String(runId), payload);
  }
}
