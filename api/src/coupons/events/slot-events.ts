import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/** A slot as its events carry it: the price in whole paise, null for a free slot. */
export interface SlotSettings {
  name: string;
  kind: 'free' | 'paid';
  pricePaise: number | null;
  capacity: number;
}

abstract class SlotEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'Slot';
}

export class SlotCreated extends SlotEvent<SlotSettings> {
  static readonly type = 'SlotCreated';
  readonly type = SlotCreated.type;
  constructor(slotId: number, settings: SlotSettings) {
    super(String(slotId), settings);
  }
}

/**
 * An admin changed a slot; `changed` names the fields. The coupon listings' `paid_slot` is not
 * followed (a slot made paid shows so on its coupons' next change), as before slots had events.
 */
export class SlotUpdated extends SlotEvent<SlotSettings & { changed: Array<keyof SlotSettings> }> {
  static readonly type = 'SlotUpdated';
  readonly type = SlotUpdated.type;
  constructor(slotId: number, settings: SlotSettings, changed: Array<keyof SlotSettings>) {
    super(String(slotId), { ...settings, changed });
  }
}

export class SlotDeleted extends SlotEvent<{ name: string }> {
  static readonly type = 'SlotDeleted';
  readonly type = SlotDeleted.type;
  constructor(slotId: number, name: string) {
    super(String(slotId), { name });
  }
}
