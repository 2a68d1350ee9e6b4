import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { proposeCashback } from '../../cashback/commands/proposals.js';
import { AddCoupon, type CouponDraft } from '../../coupons/commands/addition.js';
import { ApplyCouponLot } from '../../coupons/commands/coupon-lot.js';
import { EndCoupons, ReviseCoupon } from '../../coupons/commands/feed-changes.js';
import { couponsWithCode, couponsWithCodes, repeatsAnotherCoupon } from '../../coupons/queries/duplicates.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { PAYOUT_FEED_FORMATS } from '../../rules/cashback.js';
import type { CouponTexts } from '../../rules/coupons.js';
import { FEED_REJECTIONS, type FeedCsvMapping, type FeedFormat, type FeedMode } from '../../rules/feeds.js';
import { FeedRunFinished, FeedRunHeld } from '../events/feed-events.js';
import { FeedError, type FeedRow, feedLimits, fetchFeed, isRejection, readFeed } from '../formats/index.js';
import type { FeedRejectionAnswer } from '../queries/answers.js';
import {
  clearStagedRows,
  dropStagedRows,
  endingFeedCoupons,
  type FeedCouponIdentity,
  type FeedCouponRecord,
  type FeedRowOutcome,
  feedCouponIds,
  feedCouponsOf,
  insertFeedCoupon,
  insertFeedCoupons,
  liveFeedCouponCount,
  markFeedCouponsEnded,
  markRunRead,
  pendingRowGroups,
  runOutcomes,
  runStorePayouts,
  type StagedRow,
  setRowOutcome,
  stageRows,
  updateFeedCoupon,
  updateFeedCoupons,
  waitingAdvertisers,
} from '../queries/feed-coupons.js';
import {
  dropFeedUpload,
  type FeedRunCounts,
  feedSourceFreshness,
  feedUpload,
  moveFeedRun,
  recordFeedRejections,
} from '../queries/runs.js';
import { feedCredential } from '../queries/sources.js';
import { ADVERTISER_DIRECTORY, type AdvertiserDirectory } from './advertiser-directory.js';

/** Rows staged per statement while the feed is read, and row groups applied per lot. */
const STAGE_BATCH = 500;
const APPLY_BATCH = 1000;
/** Feed coupons ended per transaction. */
const END_BATCH = 500;

interface RunSource {
  sourceId: number;
  format: FeedFormat;
  url: string | null;
  mapping: FeedCsvMapping | null;
  mode: FeedMode;
  slotId: number;
  publish: boolean;
  acceptedAt: Date | null;
  readAt: Date | null;
  status: string;
}

/** How a run ended, for the worker's metrics. */
export type FeedRunResult =
  | { status: 'succeeded'; sourceId: number; counts: FeedRunCounts }
  | { status: 'waiting-for-admin'; sourceId: number }
  | { status: 'skipped' };

/** What a run asked the advertisers' mapping: each advertiser's store, each category list's ids. */
interface Lookups {
  stores: Map<string, number | null>;
  categories: Map<string, number[]>;
}

/** A coupon the run found repeating another of the store: rolled back, and counted a duplicate. */
class Duplicate extends Error {}

/**
 * A feed run, in three steps that a restart resumes. 1: read the feed (fetched or uploaded)
 * through the reader, staging its rows and recording its rejections; an interrupted read starts
 * again from nothing. Nothing is applied until the whole feed is read, so a feed that fails to
 * fetch or read changes nothing. 2: apply the staged rows grouped by row id (a row with its
 * translations), each through a coupon command whose transaction also writes the feed coupon's
 * identity and the row's outcome: a row applied is never applied again. 3: for a full feed, end
 * the source's coupons the feed left out, unless that is over half its live coupons and no admin
 * accepted the run: then the run waits, having ended nothing.
 */
@Injectable()
export class FeedImport {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
    private readonly commands: CommandBus,
    private readonly unitOfWork: UnitOfWork,
    @Inject(ADVERTISER_DIRECTORY) private readonly advertisers: AdvertiserDirectory,
  ) {}

  async run(runId: number): Promise<FeedRunResult> {
    const source = await this.load(runId);
    if (!source || !['queued', 'running'].includes(source.status)) return { status: 'skipped' };
    if (source.status === 'queued') {
      await this.dataSource.transaction((manager) =>
        moveFeedRun(manager, runId, ['queued'], { status: 'running', started: true }),
      );
    }
    if (source.readAt === null) await this.read(runId, source);
    await this.apply(runId, source);
    await this.proposeRates(runId, source);
    if (source.mode === 'full') {
      const held = await this.holdsBack(runId, source);
      if (held) return { status: 'waiting-for-admin', sourceId: source.sourceId };
      await this.endMissing(runId, source);
    }
    return this.finish(runId, source);
  }

  /** Marks a run failed after its last attempt: what it staged goes, nothing it held back is applied. */
  async fail(runId: number, error: unknown): Promise<number | undefined> {
    const message =
      error instanceof FeedError ? error.message : 'The import failed; it was tried again and gave up.';
    return this.unitOfWork.run(async ({ manager, record }) => {
      const moved = await moveFeedRun(manager, runId, ['queued', 'running'], {
        status: 'failed',
        finished: true,
        error: message,
      });
      if (!moved) return undefined;
      await dropStagedRows(manager, runId);
      await dropFeedUpload(manager, runId);
      record(new FeedRunFinished(runId, { sourceId: moved.sourceId, status: 'failed', error: message }));
      return moved.sourceId;
    });
  }

  private async load(runId: number): Promise<RunSource | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT s.id AS "sourceId", s.format, s.url, s.mapping, s.mode, s.slot_id AS "slotId",
              s.review_policy = 'publish' AS publish, r.accepted_at AS "acceptedAt", r.read_at AS "readAt",
              r.status
       FROM feed_runs r JOIN feed_sources s ON s.id = r.source_id WHERE r.id = $1`,
      [runId],
    );
    return row;
  }

  private async read(runId: number, source: RunSource): Promise<void> {
    await this.dataSource.transaction((manager) => clearStagedRows(manager, runId));
    const limits = feedLimits(this.environment);
    let input: Readable;
    if (source.url !== null) {
      input = await fetchFeed(source.url, await feedCredential(this.dataSource, source.sourceId), limits);
    } else {
      const bytes = await feedUpload(this.dataSource, runId);
      if (!bytes) throw new FeedError('The uploaded feed is no longer kept.');
      input = Readable.from([bytes]);
    }
    let read = 0;
    let rejected = 0;
    let rows: FeedRow[] = [];
    let rejections: FeedRejectionAnswer[] = [];
    const flush = async () => {
      const [staged, refused] = [rows, rejections];
      rows = [];
      rejections = [];
      await this.dataSource.transaction(async (manager) => {
        await recordFeedRejections(manager, runId, refused);
        await stageRows(manager, runId, staged);
      });
    };
    for await (const entry of readFeed(input, source.format, source.mapping ?? undefined, {
      maxBytes: limits.maxBytes,
    })) {
      read += 1;
      if (isRejection(entry)) {
        rejected += 1;
        rejections.push({
          line: entry.line,
          rowId: entry.rowId,
          reason: entry.reason,
          message: entry.message,
        });
      } else rows.push(entry);
      if (rows.length + rejections.length >= STAGE_BATCH) await flush();
    }
    await flush();
    await markRunRead(this.dataSource, runId, read, rejected);
  }

  private async apply(runId: number, source: RunSource): Promise<void> {
    // The mapping is read once a run for each advertiser and category list: a lot of a thousand
    // rows asks nothing it asked before.
    const lookups: Lookups = { stores: new Map(), categories: new Map() };
    let after = '';
    for (;;) {
      const groups = await pendingRowGroups(this.dataSource, runId, after, APPLY_BATCH);
      if (groups.length === 0) break;
      after = groups.at(-1)!.key;
      await this.applyLot(runId, source, groups, lookups);
    }
    const waiting = await waitingAdvertisers(this.dataSource, runId);
    if (waiting.length > 0) {
      await this.dataSource.transaction(async (manager) => {
        for (const advertiser of waiting) {
          await this.advertisers.noteUnmapped(manager, source.sourceId, advertiser, advertiser.rows);
        }
      });
    }
  }

  /**
   * Applies a lot of row groups as `applyRow` would each: what it asks of the database asked once
   * for the lot, unchanged and waiting rows written by outcome together, and the coupons added,
   * revised and ended by one ApplyCouponLot whose transaction also writes the feed coupons'
   * identities and the rows' outcomes. A row id that leads two groups of the lot (its languages
   * under different codes) has its later groups applied one at a time after the lot.
   */
  private async applyLot(
    runId: number,
    source: RunSource,
    groups: Array<{ key: string; rows: StagedRow[] }>,
    lookups: Lookups,
  ): Promise<void> {
    const manager = this.dataSource.manager;
    const leads = groups.map((group) => ({
      ...group,
      row: group.rows.find((candidate) => candidate.language === 'en') ?? group.rows[0]!,
    }));
    const seen = new Set<string>();
    const later: typeof leads = [];
    const lot: typeof leads = [];
    for (const lead of leads) {
      if (seen.has(lead.row.rowId)) later.push(lead);
      else {
        seen.add(lead.row.rowId);
        lot.push(lead);
      }
    }
    const existing = await feedCouponsOf(manager, source.sourceId, [...seen]);

    const outcomes = new Map<FeedRowOutcome, string[]>();
    const set = (outcome: FeedRowOutcome, key: string) => {
      const keys = outcomes.get(outcome) ?? [];
      keys.push(key);
      outcomes.set(outcome, keys);
    };
    type Planned = {
      key: string;
      row: StagedRow;
      merchantId: number;
      draft: CouponDraft;
      contentHash: string;
    };
    const adding: Planned[] = [];
    const candidates: Array<Planned & { existing: FeedCouponRecord }> = [];
    const ending: Array<{ key: string; rowId: string; couponId: number; outcome: FeedRowOutcome }> = [];
    for (const { key, row, rows } of lot) {
      const found = existing.get(row.rowId);
      if (row.ended) {
        if (!found || found.ended) set('unchanged', key);
        else ending.push({ key, rowId: row.rowId, couponId: found.couponId, outcome: 'ended' });
        continue;
      }
      const merchantId = lookups.stores.has(row.advertiser.id)
        ? (lookups.stores.get(row.advertiser.id) ?? null)
        : await this.storeOf(manager, source.sourceId, row.advertiser.id, lookups);
      if (merchantId === null) {
        set('waiting', key);
        continue;
      }
      const names = JSON.stringify(row.categories);
      let categoryIds = lookups.categories.get(names);
      if (!categoryIds) {
        categoryIds = await this.advertisers.categoryIdsFor(manager, source.sourceId, row.categories);
        lookups.categories.set(names, categoryIds);
      }
      const draft = draftOf(row, rows, categoryIds);
      const planned = {
        key,
        row,
        merchantId,
        draft,
        contentHash: hashOf(merchantId, draft, row.trackingUrl),
      };
      if (found) candidates.push({ ...planned, existing: found });
      else adding.push(planned);
    }

    // A merchant's own coupon with the code, added since, wins: the feed's coupon ends.
    const withCode = candidates.filter((candidate) => candidate.draft.code !== null);
    const sameCode = await couponsWithCodes(
      manager,
      withCode.map((candidate) => ({ merchantId: candidate.merchantId, code: candidate.draft.code! })),
    );
    const fromFeeds = await feedCouponIds(
      this.dataSource,
      sameCode.map((coupon) => coupon.id),
    );
    const revising: Array<Planned & { existing: FeedCouponRecord }> = [];
    for (const candidate of candidates) {
      const { key, row, draft, existing: found } = candidate;
      const code = draft.code?.toLowerCase();
      const own =
        code !== undefined &&
        sameCode.some(
          (coupon) =>
            coupon.merchantId === candidate.merchantId &&
            coupon.code === code &&
            coupon.id !== found.couponId &&
            !fromFeeds.has(coupon.id),
        );
      if (own) {
        if (found.ended) set('duplicate', key);
        else ending.push({ key, rowId: row.rowId, couponId: found.couponId, outcome: 'duplicate' });
      } else if (found.contentHash === candidate.contentHash && !found.ended) set('unchanged', key);
      else revising.push(candidate);
    }

    // Rows that change no coupon write their outcome only, together.
    for (const [outcome, keys] of outcomes) await setRowOutcome(this.dataSource, runId, keys, outcome);
    if (adding.length + revising.length + ending.length > 0) {
      await this.commands.execute(
        new ApplyCouponLot(
          {
            slotId: source.slotId,
            publish: source.publish,
            added: adding.map(({ merchantId, draft }) => ({ merchantId, draft })),
            revised: revising.map(({ existing: found, draft }) => ({
              couponId: found.couponId,
              draft,
              comeBack: found.ended ? { slotId: source.slotId, publish: source.publish } : null,
            })),
            ended: ending.map((end) => end.couponId),
          },
          async (m, result) => {
            const applied = new Map<FeedRowOutcome, string[]>();
            const mark = (outcome: FeedRowOutcome, key: string) =>
              applied.set(outcome, [...(applied.get(outcome) ?? []), key]);
            const rejected: Array<{ key: string; row: StagedRow }> = [];
            const identities: FeedCouponIdentity[] = [];
            for (const [at, item] of adding.entries()) {
              const added = result.added[at]!;
              if ('refused' in added) rejected.push(item);
              else if ('duplicate' in added) mark('duplicate', item.key);
              else {
                identities.push(this.identityOf(runId, source, item, added.couponId));
                mark('added', item.key);
              }
            }
            await insertFeedCoupons(m, identities);
            const revisedIdentities: FeedCouponIdentity[] = [];
            for (const [at, item] of revising.entries()) {
              if ('refused' in result.revised[at]!) rejected.push(item);
              else {
                revisedIdentities.push(this.identityOf(runId, source, item, item.existing.couponId));
                mark('updated', item.key);
              }
            }
            await updateFeedCoupons(m, revisedIdentities);
            await markFeedCouponsEnded(
              m,
              source.sourceId,
              ending.map((end) => end.rowId),
              runId,
            );
            for (const end of ending) mark(end.outcome, end.key);
            for (const [outcome, keys] of applied) await setRowOutcome(m, runId, keys, outcome);
            // A row the reader let through that a coupon refuses (its end passed since it was read).
            if (rejected.length > 0) {
              await recordFeedRejections(
                m,
                runId,
                rejected.map(({ row }) => ({
                  line: row.line,
                  rowId: row.rowId,
                  reason: 'ended-in-past' as const,
                  message: FEED_REJECTIONS['ended-in-past'],
                })),
              );
              await m.query('UPDATE feed_runs SET rejected = rejected + $2 WHERE id = $1', [
                runId,
                rejected.length,
              ]);
              await setRowOutcome(
                m,
                runId,
                rejected.map(({ key }) => key),
                'rejected',
              );
            }
          },
        ),
      );
    }
    for (const lead of later) {
      const outcome = await this.applyRow(runId, source, lead.key, lead.rows);
      if (outcome === 'unchanged') await setRowOutcome(this.dataSource, runId, [lead.key], 'unchanged');
    }
  }

  private async storeOf(
    manager: EntityManager,
    sourceId: number,
    advertiserId: string,
    lookups: Lookups,
  ): Promise<number | null> {
    const store = await this.advertisers.storeOf(manager, sourceId, advertiserId);
    lookups.stores.set(advertiserId, store);
    return store;
  }

  private identityOf(
    runId: number,
    source: RunSource,
    item: { row: StagedRow; contentHash: string },
    couponId: number,
  ): FeedCouponIdentity {
    return {
      sourceId: source.sourceId,
      rowId: item.row.rowId,
      couponId,
      contentHash: item.contentHash,
      trackingUrl: item.row.trackingUrl,
      runId,
    };
  }

  /**
   * A network whose rows carry its commission (Cuelinks' payout) proposes each mapped store's rate:
   * the store's best payout of the run times `CASHBACK_SHARE_PERCENT`, for an admin to accept.
   * Read from the run's staged rows, so a resumed run proposes from all of them.
   */
  private async proposeRates(runId: number, source: RunSource): Promise<void> {
    if (!(PAYOUT_FEED_FORMATS as readonly string[]).includes(source.format)) return;
    const payouts = await runStorePayouts(this.dataSource, runId, source.sourceId);
    if (payouts.length === 0) return;
    await this.unitOfWork.run((tx) =>
      proposeCashback(
        tx,
        payouts.map((each) => ({ ...each, sourceId: source.sourceId })),
        this.environment.CASHBACK_SHARE_PERCENT,
      ),
    );
  }

  /**
   * Applies one row id with its translations and answers its outcome. An outcome other than
   * `unchanged` is written in the transaction that applied it; `unchanged` by the caller.
   */
  private async applyRow(
    runId: number,
    source: RunSource,
    key: string,
    rows: StagedRow[],
  ): Promise<FeedRowOutcome> {
    // The English row is the coupon (its id its identity); the others are its translations.
    const row = rows.find((candidate) => candidate.language === 'en') ?? rows[0]!;
    const rowId = row.rowId;
    const manager = this.dataSource.manager;
    const [existing] = (await feedCouponsOf(manager, source.sourceId, [rowId])).values();
    const mark = (outcome: FeedRowOutcome) => (m: EntityManager) => setRowOutcome(m, runId, [key], outcome);

    if (row.ended) {
      if (!existing || existing.ended) return 'unchanged';
      await this.commands.execute(
        new EndCoupons([existing.couponId], async (m) => {
          await markFeedCouponsEnded(m, source.sourceId, [rowId], runId);
          await mark('ended')(m);
        }),
      );
      return 'ended';
    }

    const merchantId = await this.advertisers.storeOf(manager, source.sourceId, row.advertiser.id);
    if (merchantId === null) {
      await mark('waiting')(manager);
      return 'waiting';
    }
    const categoryIds = await this.advertisers.categoryIdsFor(manager, source.sourceId, row.categories);
    const draft = draftOf(row, rows, categoryIds);
    const contentHash = hashOf(merchantId, draft, row.trackingUrl);
    const identity = { sourceId: source.sourceId, rowId, contentHash, trackingUrl: row.trackingUrl, runId };

    try {
      if (!existing) {
        await this.commands.execute(
          new AddCoupon(merchantId, source.slotId, draft, source.publish, async (m, added) => {
            if (
              await repeatsAnotherCoupon(m, {
                id: added.couponId,
                merchantId,
                code: draft.code,
                title: draft.title,
              })
            )
              throw new Duplicate();
            await insertFeedCoupon(m, { ...identity, couponId: added.couponId });
            await mark('added')(m);
          }),
        );
        return 'added';
      }
      // A merchant's own coupon with the code, added since, wins: the feed's coupon ends.
      if (draft.code !== null && (await this.merchantHasOwn(merchantId, draft.code, existing.couponId))) {
        if (existing.ended) {
          await mark('duplicate')(manager);
          return 'duplicate';
        }
        await this.commands.execute(
          new EndCoupons([existing.couponId], async (m) => {
            await markFeedCouponsEnded(m, source.sourceId, [rowId], runId);
            await mark('duplicate')(m);
          }),
        );
        return 'duplicate';
      }
      if (existing.contentHash === contentHash && !existing.ended) return 'unchanged';
      await this.commands.execute(
        new ReviseCoupon(
          existing.couponId,
          draft,
          existing.ended ? { slotId: source.slotId, publish: source.publish } : null,
          async (m) => {
            await updateFeedCoupon(m, { ...identity, ended: false });
            await mark('updated')(m);
          },
        ),
      );
      return 'updated';
    } catch (error) {
      if (error instanceof Duplicate) {
        await mark('duplicate')(manager);
        return 'duplicate';
      }
      // A row the reader let through that a coupon refuses (its end passed since it was read).
      if (error instanceof BadRequestException) {
        await this.dataSource.transaction(async (m) => {
          await recordFeedRejections(m, runId, [
            { line: row.line, rowId, reason: 'ended-in-past', message: FEED_REJECTIONS['ended-in-past'] },
          ]);
          await m.query('UPDATE feed_runs SET rejected = rejected + 1 WHERE id = $1', [runId]);
          await setRowOutcome(m, runId, [key], 'rejected');
        });
        return 'rejected';
      }
      throw error;
    }
  }

  /** Whether the store has a coupon of its own (not a feed's) with the code, other than `couponId`. */
  private async merchantHasOwn(merchantId: number, code: string, couponId: number): Promise<boolean> {
    const others = (await couponsWithCode(this.dataSource.manager, merchantId, code)).filter(
      (id) => id !== couponId,
    );
    if (others.length === 0) return false;
    const fromFeeds = await feedCouponIds(this.dataSource, others);
    return others.some((id) => !fromFeeds.has(id));
  }

  /** A full run that would end over half the source's live coupons, not accepted: it waits. */
  private async holdsBack(runId: number, source: RunSource): Promise<boolean> {
    if (source.acceptedAt !== null) return false;
    const live = await liveFeedCouponCount(this.dataSource, source.sourceId);
    const ending = (await endingFeedCoupons(this.dataSource, source.sourceId, runId, Number.MAX_SAFE_INTEGER))
      .length;
    if (ending * 2 <= live) return false;
    const counts = await this.counts(runId);
    await this.unitOfWork.run(async ({ manager, record }) => {
      await moveFeedRun(manager, runId, ['running'], { status: 'waiting-for-admin', counts });
      record(new FeedRunHeld(runId, { sourceId: source.sourceId, ending, live }));
    });
    return true;
  }

  private async endMissing(runId: number, source: RunSource): Promise<void> {
    for (;;) {
      const ending = await endingFeedCoupons(this.dataSource, source.sourceId, runId, END_BATCH);
      if (ending.length === 0) return;
      await this.commands.execute(
        new EndCoupons(
          ending.map((coupon) => coupon.couponId),
          (m) =>
            markFeedCouponsEnded(
              m,
              source.sourceId,
              ending.map((coupon) => coupon.rowId),
              runId,
            ),
        ),
      );
    }
  }

  private async counts(runId: number): Promise<FeedRunCounts> {
    const outcomes = await runOutcomes(this.dataSource, runId);
    const [run] = await this.dataSource.query(
      `SELECT rows_read AS "rowsRead", rejected,
              (SELECT count(*)::int FROM feed_coupons WHERE last_run_id = $1 AND ended) AS ended
       FROM feed_runs WHERE id = $1`,
      [runId],
    );
    return {
      rowsRead: run.rowsRead,
      added: outcomes.added,
      updated: outcomes.updated,
      unchanged: outcomes.unchanged,
      ended: run.ended,
      duplicates: outcomes.duplicate,
      rejected: run.rejected,
      waiting: outcomes.waiting,
    };
  }

  private async finish(runId: number, source: RunSource): Promise<FeedRunResult> {
    const counts = await this.counts(runId);
    const moved = await this.unitOfWork.run(async ({ manager, record }) => {
      const moved = await moveFeedRun(manager, runId, ['running'], {
        status: 'succeeded',
        finished: true,
        counts,
        error: null,
      });
      if (!moved) return undefined;
      await dropStagedRows(manager, runId);
      await dropFeedUpload(manager, runId);
      record(new FeedRunFinished(runId, { sourceId: source.sourceId, status: 'succeeded', counts }));
      return moved;
    });
    return moved ? { status: 'succeeded', sourceId: source.sourceId, counts } : { status: 'skipped' };
  }
}

/**
 * The coupon a row with its translations says. A feed's description may be empty where a coupon
 * needs one: the title stands in. A percentage goes in as one; a flat amount as the rupee value.
 */
function draftOf(row: StagedRow, rows: StagedRow[], categoryIds: number[]): CouponDraft {
  const texts: CouponTexts = {};
  // A row without an English one stands in for English and keeps its own language too.
  for (const other of rows) {
    if (other.language !== 'hi' && other.language !== 'te') continue;
    texts[other.language] = {
      title: other.title,
      description: other.description || other.title,
      terms: other.terms,
    };
  }
  const percent =
    row.payout?.type === 'percent' && Number.isInteger(row.payout.value) ? row.payout.value : null;
  const flat = row.payout?.type === 'flat' ? Math.round(row.payout.value) : null;
  return {
    code: row.code,
    title: row.title,
    description: row.description || row.title,
    terms: row.terms,
    percentage: percent !== null && percent >= 1 && percent <= 100 ? percent : null,
    discountValue: flat !== null && flat >= 1 ? flat : null,
    expiryDate: row.endsAt === null ? null : new Date(row.endsAt),
    exclusive: row.exclusive,
    merchantUrl: null,
    categoryIds,
    texts,
  };
}

/** What a row says, hashed: an equal hash on the next run means nothing to change. */
function hashOf(merchantId: number, draft: CouponDraft, trackingUrl: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify([merchantId, draft, trackingUrl]))
    .digest('base64url');
}

/**
 * One line for each scheduled source that has not succeeded for three of its intervals (since it
 * was created, when it never has): readiness reports them without failing.
 */
export async function staleFeedSources(
  reader: Pick<DataSource, 'query'>,
  now = new Date(),
): Promise<string[]> {
  const lines: string[] = [];
  for (const source of await feedSourceFreshness(reader)) {
    const since = source.lastSuccessAt ?? source.createdAt;
    const minutes = (now.getTime() - new Date(since).getTime()) / 60_000;
    if (minutes <= 3 * source.scheduleMinutes) continue;
    lines.push(
      source.lastSuccessAt === null
        ? `feed source ${source.id} (${source.name}) has not succeeded since it was created ${Math.round(minutes)} minutes ago; it runs every ${source.scheduleMinutes}`
        : `feed source ${source.id} (${source.name}) last succeeded ${Math.round(minutes)} minutes ago; it runs every ${source.scheduleMinutes}`,
    );
  }
  return lines;
}
