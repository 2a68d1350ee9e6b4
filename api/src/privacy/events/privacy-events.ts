import { DomainEvent } from '../../infrastructure/events/domain-event.js';

// Payloads carry ids only: the mailer reads the grievance's address and words from its row.

abstract class GrievanceEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'Grievance';
}

/** A grievance was filed: its acknowledgement (reference and due date) is mailed to the person. */
export class GrievanceFiled extends GrievanceEvent<{ grievanceId: number }> {
  static readonly type = 'GrievanceFiled';
  readonly type = GrievanceFiled.type;
}

/** An admin answered a grievance: the answer is mailed to the person in their language. */
export class GrievanceAnswered extends GrievanceEvent<{ grievanceId: number; adminId: number }> {
  static readonly type = 'GrievanceAnswered';
  readonly type = GrievanceAnswered.type;
}

/** A person downloaded their data (the aggregate is the account: `shopper:12`). */
export class PersonDataExported extends DomainEvent<{
  personKind: 'shopper' | 'merchant';
  personId: number;
}> {
  static readonly type = 'PersonDataExported';
  readonly type = PersonDataExported.type;
  readonly aggregateType = 'Person';
}
