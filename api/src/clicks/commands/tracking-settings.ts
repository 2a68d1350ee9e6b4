import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../events/unit-of-work.js';
import type { TrackingSettings } from '../../rules/clicks.js';
import { TrackingSettingsChanged } from '../events/tracking-events.js';
import { UPDATE_TRACKING_SETTINGS } from '../queries/clicks.js';

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
      const [saved]: TrackingSettings[] = await manager.query(UPDATE_TRACKING_SETTINGS, [
        merchantId,
        settings.subIdParam,
        settings.cookieWindowDays,
      ]);
      if (!saved) throw new NotFoundException();
      record(new TrackingSettingsChanged(String(merchantId), saved));
      return saved;
    });
  }
}
