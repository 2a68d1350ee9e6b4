import {
  Body,
  Controller,
  Get,
  HttpException,
  HttpStatus,
  NotFoundException,
  Param,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { type AccountRequest, CurrentMerchantId, Public } from '../identity/sessions/access.js';
import { Environment } from '../infrastructure/config/environment.js';
import { CLICK_OUT, type TrackingSettings } from '../rules/clicks.js';
import { unavailableOfferPage, visitorLanguage } from './click-out-page.js';
import { ClickOut, type ClickOutResult } from './commands/click-out.js';
import { UpdateTrackingSettings } from './commands/tracking-settings.js';
import { TrackingSettingsDto } from './dto/tracking-settings.dto.js';
import { trackingSettings } from './queries/clicks.js';

/** The public site's cookie of the language a visitor chose. */
const LANGUAGE_COOKIE = 'language';

/** A coupon id as a path names it; anything else names no coupon (404, never a database error). */
function couponIdOf(text: string): number | null {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** The way from a coupon to its store, recorded as a click the store's postback names later. */
@ApiTags('clicks')
@Public()
@Controller('out')
export class ClickOutController {
  constructor(
    private readonly commands: CommandBus,
    private readonly environment: Environment,
  ) {}

  /**
   * 302 to the coupon's store with the click id in the merchant's sub-id parameter, or for a feed
   * coupon to its network's tracking link with the click id in the source's. Nothing in the
   * request decides the target: only URLs stored with the coupon, its merchant or its feed.
   */
  @Get(':couponId')
  async clickOut(
    @Param('couponId') couponId: string,
    @Req() request: AccountRequest,
    @Res() reply: FastifyReply,
  ) {
    // Each click is its own (never a cached redirect); the store learns nothing of our addresses
    // (the referrer policy of a redirect applies to the request it leads to); not for search results.
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-robots-tag', 'noindex, nofollow');
    // Fastify answers HEAD with the GET route; link checkers and chat previews send HEAD, and a
    // click is a visitor leaving for the store, so HEAD is refused rather than recorded.
    if (request.method === 'HEAD') {
      reply.header('allow', 'GET');
      throw new HttpException({ statusCode: 405, message: CLICK_OUT.getOnly }, HttpStatus.METHOD_NOT_ALLOWED);
    }
    const id = couponIdOf(couponId);
    // Only a shopper is credited for purchases: a merchant or admin trying a link is a visitor.
    const shopper = request.account?.role === 'user' ? request.account.id : null;
    const result: ClickOutResult =
      id === null ? null : await this.commands.execute(new ClickOut(id, shopper, request.ip));
    if (result) return reply.redirect(result.location, 302);
    if (!request.headers.accept?.includes('text/html')) {
      throw new NotFoundException({ statusCode: 404, message: CLICK_OUT.unavailable });
    }
    const language = visitorLanguage(request.cookies?.[LANGUAGE_COOKIE], request.headers['accept-language']);
    return reply
      .status(404)
      .header('content-type', 'text/html; charset=utf-8')
      .send(unavailableOfferPage(language, this.environment.PUBLIC_URL));
  }
}

/** The merchant's tracking settings: its sub-id parameter and cookie window. */
@ApiTags('merchant')
@Controller('merchant')
export class MerchantTrackingController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get('tracking')
  async tracking(@CurrentMerchantId() merchantId: number): Promise<TrackingSettings> {
    return trackingSettings(this.dataSource, merchantId);
  }

  @Put('tracking')
  saveTracking(
    @CurrentMerchantId() merchantId: number,
    @Body() body: TrackingSettingsDto,
  ): Promise<TrackingSettings> {
    return this.commands.execute(new UpdateTrackingSettings(merchantId, body));
  }
}
