import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isUniqueViolationOf } from '../../identity/unique-violations.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { FEED_SOURCE_MESSAGES as M, FEED_RUN_MESSAGES as R } from '../../rules/feeds.js';
import { FeedRunAccepted, FeedRunDiscarded, FeedRunRequested } from '../events/feed-events.js';
import { dropStagedRows } from '../queries/feed-coupons.js';
import {
  dropFeedUpload,
  feedRunStatus,
  insertFeedRun,
  lockSourcesDue,
  moveFeedRun,
  storeFeedUpload,
} from '../queries/runs.js';
import { lockFeedSource } from '../queries/sources.js';

export class RequestFeedRun extends Command<{ id: number }> {
  constructor(
    readonly sourceId: number,
    /** An admin's upload of the feed (gzip or not); without it the source's address is fetched. */
    readonly file?: Buffer,
  ) {
    super();
  }
}

/**
 * Records a queued run, with the uploaded file in the same transaction, and `FeedRunRequested`,
 * whose consumer adds the import job: the run exists with its file and its event, or not at all.
 * Whether the source is enabled decides its schedule only: an admin may run a disabled source (to
 * try it before turning it on).
 */
@CommandHandler(RequestFeedRun)
export class RequestFeedRunHandler implements ICommandHandler<RequestFeedRun> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ sourceId, file }: RequestFeedRun) {
    try {
      return await this.unitOfWork.run((tx) => requestFeedRun(tx, sourceId, file));
    } catch (error) {
      if (isUniqueViolationOf(error, 'feed_runs_one_open')) {
        throw new ConflictException({ statusCode: 409, message: R.alreadyOpen });
      }
      throw error;
    }
  }
}

/** RequestFeedRun's work in the caller's transaction (the command's, or the demo seed's). */
export async function requestFeedRun({ manager, record }: Transaction, sourceId: number, file?: Buffer) {
  const source = await lockFeedSource(manager, sourceId);
  if (!source) throw new NotFoundException({ statusCode: 404, message: M.notFound });
  if (!file && source.url === null) {
    throw new BadRequestException({
      statusCode: 400,
      message: R.fileRequired,
      errors: { file: [R.fileRequired] },
    });
  }
  const trigger = file ? 'upload' : 'manual';
  const id = await insertFeedRun(manager, sourceId, trigger);
  if (file) await storeFeedUpload(manager, id, file);
  record(new FeedRunRequested(id, { sourceId, trigger, uploadBytes: file?.length ?? null }));
  return { id };
}

/** The 404 or 409 of a run that is not waiting for an admin. */
async function notWaiting(status: string | undefined): Promise<never> {
  if (status === undefined) throw new NotFoundException({ statusCode: 404, message: R.notFound });
  throw new ConflictException({ statusCode: 409, message: R.notWaiting });
}

export class AcceptFeedRun extends Command<void> {
  constructor(readonly runId: number) {
    super();
  }
}

/**
 * An admin lets a run that waited (it would end over half the source's live coupons) go on: it
 * is queued again, accepted, and its import job is added once more by the event's consumer.
 */
@CommandHandler(AcceptFeedRun)
export class AcceptFeedRunHandler implements ICommandHandler<AcceptFeedRun> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ runId }: AcceptFeedRun) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const moved = await moveFeedRun(manager, runId, ['waiting-for-admin'], {
        status: 'queued',
        accepted: true,
      });
      if (!moved) return notWaiting(await feedRunStatus(manager, runId));
      record(new FeedRunAccepted(runId, moved.sourceId));
    });
  }
}

export class DiscardFeedRun extends Command<void> {
  constructor(readonly runId: number) {
    super();
  }
}

/** An admin ends a run that waited without applying what it held back; its file and staged rows go. */
@CommandHandler(DiscardFeedRun)
export class DiscardFeedRunHandler implements ICommandHandler<DiscardFeedRun> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ runId }: DiscardFeedRun) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const moved = await moveFeedRun(manager, runId, ['waiting-for-admin'], {
        status: 'discarded',
        finished: true,
      });
      if (!moved) return notWaiting(await feedRunStatus(manager, runId));
      await dropFeedUpload(manager, runId);
      await dropStagedRows(manager, runId);
      record(new FeedRunDiscarded(runId, moved.sourceId));
    });
  }
}

export class RequestDueFeedRuns extends Command<number> {}

/**
 * The schedule: a run is requested (`scheduled`) for every enabled source fetched from an address
 * whose interval has passed since its last run was requested and that has no run open. Each run
 * with its FeedRunRequested, whose consumer adds the job. Answers how many it requested.
 */
@CommandHandler(RequestDueFeedRuns)
export class RequestDueFeedRunsHandler implements ICommandHandler<RequestDueFeedRuns> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute() {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const due = await lockSourcesDue(manager);
      for (const sourceId of due) {
        const id = await insertFeedRun(manager, sourceId, 'scheduled');
        record(new FeedRunRequested(id, { sourceId, trigger: 'scheduled', uploadBytes: null }));
      }
      return due.length;
    });
  }
}
