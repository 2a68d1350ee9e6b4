import { randomBytes } from 'node:crypto';
import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import type { Language } from '../../rules/engagement.js';
import { GRIEVANCE_ANSWER, grievanceDueAt } from '../../rules/privacy.js';
import type { GrievanceDto } from '../dto/privacy.dto.js';
import { GrievanceAnswered, GrievanceFiled } from '../events/privacy-events.js';
import { recordDataRequest } from '../queries/data-requests.js';
import { answerGrievance, insertGrievance } from '../queries/grievances.js';

export class FileGrievance extends Command<{ id: number; reference: string; dueAt: Date }> {
  constructor(
    readonly form: GrievanceDto,
    readonly language: Language,
    /** The signed-in account that files it, if any. */
    readonly person?: { kind: 'shopper' | 'merchant'; id: number },
  ) {
    super();
  }
}

/**
 * A reference a person can quote (`GR-7K3QX9PA`): random, so it tells nobody how many grievances
 * there are, in letters and digits no one confuses (no I, O, 0, 1).
 */
function newReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return `GR-${[...randomBytes(8)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** Records the grievance with its due date, and its first step in the data-request log. */
@CommandHandler(FileGrievance)
export class FileGrievanceHandler implements ICommandHandler<FileGrievance> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ form, language, person }: FileGrievance) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const filedAt = new Date();
      const dueAt = grievanceDueAt(filedAt);
      const reference = newReference();
      const id = await insertGrievance(manager, {
        reference,
        name: form.name,
        email: form.email,
        category: form.category,
        subject: form.subject,
        message: form.message,
        language,
        person,
        filedAt,
        dueAt,
      });
      await recordDataRequest(manager, {
        kind: 'grievance',
        action: 'filed',
        person,
        reference,
        actedBy: 'person',
        detail: { category: form.category, dueAt: dueAt.toISOString() },
      });
      record(new GrievanceFiled(String(id), { grievanceId: id }));
      return { id, reference, dueAt };
    });
  }
}

export class AnswerGrievance extends Command<void> {
  constructor(
    readonly id: number,
    readonly answer: string,
    readonly adminId: number,
  ) {
    super();
  }
}

/** Keeps the answer (once: a second answer is refused) and logs who gave it; the mail follows. */
@CommandHandler(AnswerGrievance)
export class AnswerGrievanceHandler implements ICommandHandler<AnswerGrievance> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, answer, adminId }: AnswerGrievance) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const answered = await answerGrievance(manager, id, answer, adminId);
      if (answered === undefined)
        throw new NotFoundException({ statusCode: 404, message: GRIEVANCE_ANSWER.notFound });
      if (answered === 'answered')
        throw new ConflictException({ statusCode: 409, message: GRIEVANCE_ANSWER.alreadyAnswered });
      await recordDataRequest(manager, {
        kind: 'grievance',
        action: 'answered',
        person:
          answered.personKind && answered.personId !== null
            ? { kind: answered.personKind, id: answered.personId }
            : undefined,
        reference: answered.reference,
        actedBy: 'admin',
        adminId,
      });
      record(new GrievanceAnswered(String(id), { grievanceId: id, adminId }));
    });
  }
}
