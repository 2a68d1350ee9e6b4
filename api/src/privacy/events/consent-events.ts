import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { ConsentHolder, ConsentPurpose } from '../../rules/privacy.js';

/** A person's consents are one history: who, which purpose, given or withdrawn, under which notice. */
abstract class ConsentEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'ConsentHolder';
}

/** Ids only: the holder is named by kind and id, never by address or name. */
export class ConsentRecorded extends ConsentEvent<{
  holderKind: ConsentHolder;
  holderId: number;
  purpose: ConsentPurpose;
  given: boolean;
  noticeVersion: string;
}> {
  static readonly type = 'ConsentRecorded';
  readonly type = ConsentRecorded.type;
}
