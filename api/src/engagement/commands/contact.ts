import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import type { ContactMessageDto } from '../dto/engagement.dto.js';
import { ContactMessageHandled, ContactMessageReceived } from '../events/engagement-events.js';

export class SubmitContactMessage extends Command<{ id: number }> {
  constructor(readonly form: ContactMessageDto) {
    super();
  }
}

/** Keeps the message; the admins are told by mail once it is committed. */
@CommandHandler(SubmitContactMessage)
export class SubmitContactMessageHandler implements ICommandHandler<SubmitContactMessage> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ form }: SubmitContactMessage) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [message] = await manager.query(
        'INSERT INTO contact_messages (name, email, mobile, message) VALUES ($1, $2, $3, $4) RETURNING id',
        [form.name, form.email, form.mobile || null, form.msg],
      );
      record(new ContactMessageReceived(String(message.id), { contactMessageId: message.id }));
      return { id: message.id as number };
    });
  }
}

export class MarkContactMessageHandled extends Command<void> {
  constructor(
    readonly id: number,
    readonly handled: boolean,
  ) {
    super();
  }
}

@CommandHandler(MarkContactMessageHandled)
export class MarkContactMessageHandledHandler implements ICommandHandler<MarkContactMessageHandled> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, handled }: MarkContactMessageHandled) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [changed] = await manager.query(
        `WITH changed AS (
           UPDATE contact_messages SET handled = $2, handled_at = CASE WHEN $2 THEN coalesce(handled_at, now()) END
           WHERE id = $1 RETURNING id)
         SELECT * FROM changed`,
        [id, handled],
      );
      if (!changed) throw new NotFoundException({ statusCode: 404, message: 'Contact message not found.' });
      record(new ContactMessageHandled(String(id), { handled }));
    });
  }
}
