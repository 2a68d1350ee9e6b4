import { Module } from '@nestjs/common';
import { ClickWindow } from './click-window.js';
import { ClickOutController, MerchantTrackingController } from './clicks.controllers.js';
import { ClickOutHandler } from './commands/click-out.js';
import { UpdateTrackingSettingsHandler } from './commands/tracking-settings.js';

/** Click-outs to merchants' sites (the click a postback names) and merchants' tracking settings. */
@Module({
  controllers: [ClickOutController, MerchantTrackingController],
  providers: [ClickOutHandler, ClickWindow, UpdateTrackingSettingsHandler],
})
export class ClicksModule {}
