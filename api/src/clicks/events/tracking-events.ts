import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { TrackingSettings } from '../../rules/clicks.js';

/** A merchant changed how its click-outs and postbacks are tracked (sub-id parameter, cookie window). */
export class TrackingSettingsChanged extends DomainEvent<TrackingSettings> {
  static readonly type = 'TrackingSettingsChanged';
  readonly type = TrackingSettingsChanged.type;
  readonly aggregateType = 'Merchant';
}
