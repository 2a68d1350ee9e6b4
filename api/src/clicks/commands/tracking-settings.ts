import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { saveTrackingSettings } from '../../identity/merchant-tracking-store.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import type { TrackingSettings } from '../../rules/clicks.js';
import { TrackingSettingsChanged } from '../events/tracking-events.js';

export class UpdateTrackingSettings extends Command<TrackingSettings> {
  constructor(
    /** Always the signed-in merchant: a merchant changes only its own settings. */
    readonly merchantId: number,
    readonly settings: TrackingSettings,
  ) {
    super();
  }
}

/** New settings apply to the next click-out and the next postback; recorded clicks keep their id. */
@CommandHandler(UpdateTrackingSettings)
export class UpdateTrackingSettingsHandler implements ICommandHandler<UpdateTrackingSettings> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, settings }: UpdateTrackingSettings): Promise<TrackingSettings> {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const saved = await saveTrackingSettings(manager, merchantId, settings);
      if (!saved) throw new NotFoundException();
      record(new TrackingSettingsChanged(String(merchantId), saved));
      return saved;
    });
  }
}
