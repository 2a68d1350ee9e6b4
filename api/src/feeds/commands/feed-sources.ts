import { randomBytes } from 'node:crypto';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { isUniqueViolationOf } from '../../identity/unique-violations.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import {
  FEED_POSTBACK_FIELDS,
  FEED_POSTBACK_MESSAGES,
  FEED_POSTBACK_PRESETS,
  FEED_POSTBACK_STATUSES,
  FEED_SOURCE_LIMITS,
  type FeedCredential,
  type FeedCsvMapping,
  type FeedFormat,
  type FeedPostbackMapping,
  FEED_SOURCE_MESSAGES as M,
} from '../../rules/feeds.js';
import type {
  FeedCredentialDto,
  FeedPostbackMappingDto,
  FeedSourceChangesDto,
  FeedSourceDto,
} from '../dto/feed-source.dto.js';
import {
  FeedPostbackSecretRotated,
  FeedSourceCreated,
  FeedSourceDeleted,
  FeedSourceUpdated,
} from '../events/feed-events.js';
import {
  defaultFeedSlot,
  deleteFeedSourceWithoutRuns,
  type FeedSourceRow,
  feedSourceSettings,
  hasRuns,
  insertFeedSource,
  lockFeedSource,
  saveFeedCredential,
  setPostbackSecret,
  slotExists,
  updateFeedSource,
} from '../queries/sources.js';

/** A network signs its postbacks with this; as long as a merchant's postback secret. */
const newPostbackSecret = () => randomBytes(32).toString('base64url');

function refuse(errors: Record<string, string[]>): never {
  throw new BadRequestException({ statusCode: 400, message: M.invalid, errors });
}

/** The credential as stored: only the fields of its kind. */
function credentialOf(dto: FeedCredentialDto): FeedCredential {
  return dto.kind === 'header'
    ? { kind: 'header', name: dto.name as string, value: dto.value as string }
    : { kind: 'basic', username: dto.username as string, password: dto.password as string };
}

function mappingOf(dto: NonNullable<FeedSourceChangesDto['mapping']>): FeedCsvMapping {
  // Fields left out of the form are absent, not empty.
  const columns = Object.fromEntries(
    Object.entries(dto.columns).filter(([, column]) => typeof column === 'string' && column !== ''),
  );
  return { columns, separator: dto.separator ?? ',' };
}

/**
 * The postback mapping as stored: every field named or null, each status's words trimmed and
 * once. A word given for two statuses could not say which one the network means: refused.
 */
function postbackMappingOf(
  dto: FeedPostbackMappingDto,
  errors: Record<string, string[]>,
): FeedPostbackMapping {
  const fields = Object.fromEntries(
    FEED_POSTBACK_FIELDS.map((field) => [field, dto.fields[field] || null]),
  ) as FeedPostbackMapping['fields'];
  const statuses = Object.fromEntries(
    FEED_POSTBACK_STATUSES.map((status) => [
      status,
      [...new Set(dto.statuses[status]!.map((word) => word.trim()))],
    ]),
  ) as FeedPostbackMapping['statuses'];
  const seen = new Map<string, string>();
  for (const status of FEED_POSTBACK_STATUSES) {
    for (const word of statuses[status]) {
      const key = word.toLowerCase();
      const other = seen.get(key);
      if (other !== undefined && other !== status) {
        errors['postbackMapping.statuses'] = [FEED_POSTBACK_MESSAGES.statusTwice(word)];
      }
      seen.set(key, status);
    }
  }
  return { fields, statuses };
}

/**
 * The row a source's form makes of what is stored and what was sent, checked across fields: a
 * schedule and a credential need an address, a mapped CSV needs its mapping (the other formats
 * keep none), and the slot must exist.
 */
async function resolveSource(
  manager: EntityManager,
  current: (FeedSourceRow & { hasCredential: boolean }) | undefined,
  sent: FeedSourceChangesDto,
): Promise<FeedSourceRow> {
  const errors: Record<string, string[]> = {};
  const url = sent.url === undefined ? (current?.url ?? null) : sent.url || null;
  const scheduleMinutes =
    sent.scheduleMinutes === undefined ? (current?.scheduleMinutes ?? null) : sent.scheduleMinutes;
  const format = sent.format ?? (current?.format as string);
  const hasCredential =
    sent.credential === undefined ? Boolean(current?.hasCredential) : sent.credential !== null;
  if (url === null && scheduleMinutes !== null) errors.scheduleMinutes = [M.scheduleNeedsUrl];
  if (url === null && hasCredential) errors.credential = [M.credentialNeedsUrl];
  let mapping: FeedCsvMapping | null = null;
  if (format === 'mapped-csv') {
    mapping =
      sent.mapping === undefined ? (current?.mapping ?? null) : sent.mapping && mappingOf(sent.mapping);
    if (!mapping) errors.mapping = [M.mappingRequired];
  }
  let slotId = sent.slotId ?? current?.slotId;
  if (slotId === undefined) {
    slotId = await defaultFeedSlot(manager);
    if (slotId === undefined) errors.slotId = [M.noFreeSlot];
  } else if (sent.slotId !== undefined && !(await slotExists(manager, slotId))) {
    errors.slotId = [M.slot];
  }
  // A source's network changes with its format, unless the admin says how it names its fields.
  const postbackMapping = sent.postbackMapping
    ? postbackMappingOf(sent.postbackMapping, errors)
    : current && current.format === format
      ? current.postbackMapping
      : FEED_POSTBACK_PRESETS[format as FeedFormat];
  if (Object.keys(errors).length > 0) refuse(errors);
  return {
    name: sent.name ?? (current?.name as string),
    format,
    url,
    scheduleMinutes,
    mode: sent.mode ?? current?.mode ?? 'full',
    slotId: slotId as number,
    reviewPolicy: sent.reviewPolicy ?? current?.reviewPolicy ?? 'review',
    mapping,
    subIdParam: sent.subIdParam ?? current?.subIdParam ?? FEED_SOURCE_LIMITS.defaultSubIdParam,
    postbackMapping,
    enabled: sent.enabled ?? current?.enabled ?? true,
  };
}

/**
 * JSON with every object's keys in order: a mapping read back from `jsonb` (which orders keys its
 * own way) and the same mapping as sent compare equal.
 */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

/** A second source of the same name (whatever its case) is a 409 naming the field. */
async function unlessNameTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, 'feed_sources_name')) {
      throw new ConflictException({ statusCode: 409, message: M.nameTaken, errors: { name: [M.nameTaken] } });
    }
    throw error;
  }
}

export class CreateFeedSource extends Command<{ id: number }> {
  constructor(readonly form: FeedSourceDto) {
    super();
  }
}

@CommandHandler(CreateFeedSource)
export class CreateFeedSourceHandler implements ICommandHandler<CreateFeedSource> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ form }: CreateFeedSource) {
    return unlessNameTaken(() => this.unitOfWork.run((tx) => createFeedSource(tx, form)));
  }
}

/** CreateFeedSource's work in the caller's transaction (the command's, or the demo seed's). */
export async function createFeedSource({ manager, record }: Transaction, form: FeedSourceDto) {
  const row = await resolveSource(manager, undefined, form);
  const id = await insertFeedSource(manager, row, newPostbackSecret());
  if (form.credential) await saveFeedCredential(manager, id, credentialOf(form.credential));
  record(new FeedSourceCreated(id, (await feedSourceSettings(manager, id))!));
  return { id };
}

export class UpdateFeedSource extends Command<void> {
  constructor(
    readonly id: number,
    readonly changes: FeedSourceChangesDto,
  ) {
    super();
  }
}

/** Changes what was sent; a credential left out is kept, one sent as null is cleared. */
@CommandHandler(UpdateFeedSource)
export class UpdateFeedSourceHandler implements ICommandHandler<UpdateFeedSource> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, changes }: UpdateFeedSource) {
    return unlessNameTaken(() =>
      this.unitOfWork.run(async ({ manager, record }) => {
        const current = await lockFeedSource(manager, id);
        if (!current) throw new NotFoundException({ statusCode: 404, message: M.notFound });
        const row = await resolveSource(manager, current, changes);
        await updateFeedSource(manager, id, row);
        if (changes.credential !== undefined) {
          await saveFeedCredential(manager, id, changes.credential && credentialOf(changes.credential));
        }
        const changed = (Object.keys(row) as Array<keyof FeedSourceRow>).filter(
          (field) => canonicalJson(row[field]) !== canonicalJson(current[field]),
        );
        if (changes.credential !== undefined) changed.push('credential' as keyof FeedSourceRow);
        record(new FeedSourceUpdated(id, (await feedSourceSettings(manager, id))!, changed));
      }),
    );
  }
}

export class DeleteFeedSource extends Command<void> {
  constructor(readonly id: number) {
    super();
  }
}

/**
 * Deletes a source that never ran. One that ran has coupons, postbacks and a history that name
 * it: it is disabled instead (409 saying so).
 */
@CommandHandler(DeleteFeedSource)
export class DeleteFeedSourceHandler implements ICommandHandler<DeleteFeedSource> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id }: DeleteFeedSource) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const current = await lockFeedSource(manager, id);
      if (!current) throw new NotFoundException({ statusCode: 404, message: M.notFound });
      if ((await hasRuns(manager, id)) || !(await deleteFeedSourceWithoutRuns(manager, id))) {
        throw new ConflictException({ statusCode: 409, message: M.hasRuns });
      }
      record(new FeedSourceDeleted(id, current.name));
    });
  }
}

export class RotateFeedPostbackSecret extends Command<void> {
  constructor(readonly id: number) {
    super();
  }
}

/** A new postback secret; the old one stops working at once. The event never carries either. */
@CommandHandler(RotateFeedPostbackSecret)
export class RotateFeedPostbackSecretHandler implements ICommandHandler<RotateFeedPostbackSecret> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id }: RotateFeedPostbackSecret) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      if (!(await setPostbackSecret(manager, id, newPostbackSecret()))) {
        throw new NotFoundException({ statusCode: 404, message: M.notFound });
      }
      record(new FeedPostbackSecretRotated(id));
    });
  }
}
