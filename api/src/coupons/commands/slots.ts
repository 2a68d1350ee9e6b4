import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QueryFailedError } from 'typeorm';
import { isUniqueViolationOf } from '../../identity/unique-violations.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { SLOT_MESSAGES as M } from '../../rules/coupons.js';
import { rupeesToPaise } from '../../rules/money.js';
import type { SlotChangesDto, SlotDto } from '../dto/review.dto.js';
import { SlotCreated, SlotDeleted, type SlotSettings, SlotUpdated } from '../events/slot-events.js';
import type { SlotAnswer } from '../queries/answers.js';
import { couponsOfSlot } from '../queries/slot-seats.js';
import { lockSlot, slotAnswer } from '../queries/slots.js';
import { deleteSlot, insertSlot, updateSlot } from '../slot-store.js';

const notFound = () => new NotFoundException({ statusCode: 404, message: M.notFound });

/** A second slot of the same name (whatever its case) is a 409 naming the field. */
async function unlessNameTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, 'slots_name_key')) {
      throw new ConflictException({ statusCode: 409, message: M.nameTaken, errors: { name: [M.nameTaken] } });
    }
    throw error;
  }
}

export class CreateSlot extends Command<SlotAnswer> {
  constructor(readonly form: SlotDto) {
    super();
  }
}

@CommandHandler(CreateSlot)
export class CreateSlotHandler implements ICommandHandler<CreateSlot> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ form }: CreateSlot) {
    return unlessNameTaken(() => this.unitOfWork.run((tx) => createSlot(tx, form)));
  }
}

/** CreateSlot's work in the caller's transaction (the command's, or the demo seed's). */
export async function createSlot({ manager, record }: Transaction, form: SlotDto): Promise<SlotAnswer> {
  const settings: SlotSettings = {
    name: form.name,
    kind: form.kind,
    pricePaise: form.kind === 'paid' && form.price ? rupeesToPaise(form.price) : null,
    capacity: form.capacity,
  };
  const id = await insertSlot(manager, settings);
  record(new SlotCreated(id, settings));
  return slotAnswer(id, settings);
}

export class UpdateSlot extends Command<SlotAnswer> {
  constructor(
    readonly id: number,
    readonly changes: SlotChangesDto,
  ) {
    super();
  }
}

/**
 * Changes what was sent. A slot made paid needs a price, sent or kept; a free one keeps none. A
 * changed capacity moves the slot's seats (the table's trigger); a lowered one lets the coupons
 * in it stay until they end.
 */
@CommandHandler(UpdateSlot)
export class UpdateSlotHandler implements ICommandHandler<UpdateSlot> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, changes }: UpdateSlot) {
    return unlessNameTaken(() =>
      this.unitOfWork.run(async ({ manager, record }) => {
        const current = await lockSlot(manager, id);
        if (!current) throw notFound();
        const kind = changes.kind ?? current.kind;
        // Left out: the price kept; null: none.
        const pricePaise =
          changes.price === undefined
            ? current.pricePaise
            : changes.price === null
              ? null
              : rupeesToPaise(changes.price);
        if (kind === 'paid' && pricePaise === null) {
          throw new ConflictException({ statusCode: 409, message: M.paidNeedsPrice });
        }
        const settings: SlotSettings = {
          name: changes.name ?? current.name,
          kind,
          pricePaise: kind === 'paid' ? pricePaise : null,
          capacity: changes.capacity ?? current.capacity,
        };
        const changed = (Object.keys(settings) as Array<keyof SlotSettings>).filter(
          (field) => settings[field] !== current[field],
        );
        if (changed.length > 0) {
          await updateSlot(manager, id, settings);
          record(new SlotUpdated(id, settings, changed));
        }
        return slotAnswer(id, settings);
      }),
    );
  }
}

export class DeleteSlot extends Command<SlotAnswer> {
  constructor(readonly id: number) {
    super();
  }
}

/** Deletes a slot nothing names; answers it as it was. */
@CommandHandler(DeleteSlot)
export class DeleteSlotHandler implements ICommandHandler<DeleteSlot> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ id }: DeleteSlot) {
    try {
      return await this.unitOfWork.run(async ({ manager, record }) => {
        const current = await lockSlot(manager, id);
        if (!current) throw notFound();
        if ((await couponsOfSlot(manager, id)) > 0) {
          throw new ConflictException({ statusCode: 409, message: M.hasCoupons });
        }
        await deleteSlot(manager, id);
        record(new SlotDeleted(id, current.name));
        return slotAnswer(id, current);
      });
    } catch (error) {
      // Another feature's rows name the slot (a feed source places its coupons there).
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503') {
        throw new ConflictException({ statusCode: 409, message: M.inUse });
      }
      throw error;
    }
  }
}
