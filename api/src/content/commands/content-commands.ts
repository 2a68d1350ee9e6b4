import { BadRequestException, NotFoundException, type Type } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ObjectLiteral } from 'typeorm';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { storeImage } from '../../media/media.js';
import { type ContentKindName, ContentRemoved, ContentSaved } from '../events/content-events.js';

/** What the content commands need to know of a kind of content. */
export interface ContentKind<E extends ObjectLiteral = ObjectLiteral> {
  name: ContentKindName;
  entity: Type<E>;
  /** The identifying property: `id`, or `slot` for seasonal offers. */
  key: string;
  /** Set to now on every save. */
  touched: string;
  notFound: string;
  /** Addressed by a fixed key and made on its first save (the four seasonal slots). */
  createdOnFirstSave?: boolean;
  /** Message when a new record comes without its image; undefined when the image is optional. */
  imageRequired?: string;
  /** Top-level message of a 400 for this kind's form. */
  invalidMessage?: string;
}

export interface UploadedImage {
  bytes: Buffer;
  field: string;
}

export class SaveContent extends Command<{ id: number }> {
  constructor(
    readonly kind: ContentKind,
    /** Undefined to add a new record. */
    readonly id: number | undefined,
    readonly values: ObjectLiteral,
    readonly image?: UploadedImage,
  ) {
    super();
  }
}

@CommandHandler(SaveContent)
export class SaveContentHandler implements ICommandHandler<SaveContent> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute(command: SaveContent) {
    return this.unitOfWork.run((tx) => saveContent(tx, command));
  }
}

/** SaveContent's work in the caller's transaction (the command's, or the demo seed's). */
export async function saveContent(
  { manager, record }: Transaction,
  { kind, id, values, image }: SaveContent,
): Promise<{ id: number }> {
  const repository = manager.getRepository(kind.entity);
  const existing =
    id === undefined
      ? undefined
      : await repository.findOne({ where: { [kind.key]: id }, lock: { mode: 'pessimistic_write' } });
  if (id !== undefined && !existing && !kind.createdOnFirstSave) {
    throw new NotFoundException({ statusCode: 404, message: kind.notFound });
  }
  if (!existing && !image && kind.imageRequired) {
    throw new BadRequestException({
      statusCode: 400,
      message: kind.invalidMessage ?? kind.imageRequired,
      errors: { image: [kind.imageRequired] },
    });
  }
  const imageId = image ? await storeImage(manager, image.bytes, image.field) : undefined;
  const changes = { ...values, ...(imageId && { imageId }), [kind.touched]: new Date() };
  let savedId: number;
  if (existing) {
    await repository.update({ [kind.key]: id }, changes);
    savedId = id as number;
  } else if (id !== undefined) {
    // Two first saves of one slot at once: the later one updates what the earlier made.
    await repository.upsert({ ...changes, [kind.key]: id }, [kind.key]);
    savedId = id;
  } else {
    const created = await repository.save(repository.create(changes));
    savedId = created[kind.key];
  }
  record(new ContentSaved(kind.name, savedId));
  return { id: savedId };
}

export class RemoveContent extends Command<void> {
  constructor(
    readonly kind: ContentKind,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(RemoveContent)
export class RemoveContentHandler implements ICommandHandler<RemoveContent> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ kind, id }: RemoveContent) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const { affected } = await manager.getRepository(kind.entity).delete({ [kind.key]: id });
      if (!affected) throw new NotFoundException({ statusCode: 404, message: kind.notFound });
      record(new ContentRemoved(kind.name, id));
    });
  }
}
