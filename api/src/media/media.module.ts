import { Module } from '@nestjs/common';
import { MediaController } from './media.controller.js';

/** Uploaded images: stored once by their bytes, served with their resized variants. */
@Module({ controllers: [MediaController] })
export class MediaModule {}
