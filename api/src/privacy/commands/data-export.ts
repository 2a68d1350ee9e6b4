import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { PersonDataExported } from '../events/privacy-events.js';
import { recordDataRequest } from '../queries/data-requests.js';

export class RecordDataExport extends Command<void> {
  constructor(
    readonly person: { kind: 'shopper' | 'merchant'; id: number },
    /** Records per section: what the copy held, in counts only. */
    readonly counts: Record<string, number>,
  ) {
    super();
  }
}

/** A download of a person's data is a data request: the log keeps who took a copy and when. */
@CommandHandler(RecordDataExport)
export class RecordDataExportHandler implements ICommandHandler<RecordDataExport> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ person, counts }: RecordDataExport) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      await recordDataRequest(manager, {
        kind: 'export',
        action: 'downloaded',
        person,
        actedBy: 'person',
        detail: { records: counts },
      });
      record(
        new PersonDataExported(`${person.kind}:${person.id}`, {
          personKind: person.kind,
          personId: person.id,
        }),
      );
    });
  }
}
