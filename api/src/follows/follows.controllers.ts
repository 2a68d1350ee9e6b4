import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { CurrentAccount, Public } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { WholeNumber } from '../infrastructure/http/field-decorators.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { TakesFormBody } from '../infrastructure/http/request-guards.js';
import { sendNoticePage, unsubscribeQuestion } from '../infrastructure/http/unsubscribe-link.js';
import { holdersConsenting } from '../privacy/queries/consents.js';
import { STORE_FOLLOWS } from '../rules/follows.js';
import { readStoreAlertLink } from './alert-links.js';
import { storeAlertAsk, storeAlertInvalid, storeAlertPage } from './alert-pages.js';
import { FollowStore, FollowStoreAlertLink, UnfollowStore } from './commands/follows.js';
import { followedStores } from './queries/follows.js';

class FollowStoreDto {
  @ApiProperty({ example: 4, description: "The store's merchant id." })
  @WholeNumber(STORE_FOLLOWS.merchantIdRequired, STORE_FOLLOWS.merchantIdRequired, 1, 2_147_483_647)
  merchantId: number;
}

/** The stores a signed-in shopper follows (the `/api/me` area is for users only). */
@ApiTags('me')
@Controller('me/follows')
export class UserFollowsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
  ) {}

  /** The followed stores A-Z, with their live coupons. */
  @Get()
  list(@CurrentAccount() account: SignedInAccount) {
    return followedStores(this.dataSource, account.id);
  }

  /** 201 with the store when it is newly followed, 200 when it already was. */
  @Post()
  async follow(
    @CurrentAccount() account: SignedInAccount,
    @Body() { merchantId }: FollowStoreDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { created } = await this.commands.execute(new FollowStore(account.id, merchantId));
    reply.status(created ? 201 : 200);
    const [[store], alerted] = await Promise.all([
      followedStores(this.dataSource, account.id, merchantId),
      holdersConsenting(this.dataSource, 'shopper', [account.id], 'store_alerts'),
    ]);
    // The answer says whether mails will come: they do only with the store-alerts consent.
    return {
      ...store,
      message: alerted.has(account.id) ? STORE_FOLLOWS.followed : STORE_FOLLOWS.followedWithoutAlerts,
    };
  }

  /** 204 whether or not the store was followed. */
  @Delete(':merchantId')
  @HttpCode(204)
  async unfollow(
    @CurrentAccount() account: SignedInAccount,
    @Param('merchantId', IdPipe) merchantId: number,
  ) {
    await this.commands.execute(new UnfollowStore(account.id, merchantId));
  }
}

/** The unsubscribe link of store alert mails: it works without signing in. */
@ApiTags('follows')
@Public()
@Controller('follows')
export class StoreAlertLinksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly environment: Environment,
  ) {}

  /** The link a reader follows: a page that asks (see `unsubscribeQuestion`). */
  @Get('unsubscribe')
  unsubscribe(
    @Query('token') token: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const publicUrl = this.environment.PUBLIC_URL;
    return unsubscribeQuestion(
      reply,
      { token, lang, acceptLanguage },
      {
        isShaped: (shaped) => readStoreAlertLink(shaped) !== undefined,
        ask: (language) => storeAlertAsk(language, publicUrl),
        invalid: (language) => storeAlertInvalid(language, publicUrl),
      },
    );
  }

  /**
   * One-click unsubscription (RFC 8058): mail clients POST `List-Unsubscribe=One-Click` to the
   * `List-Unsubscribe` address, and the page of the link above posts the same. Acts, idempotently.
   */
  @Post('unsubscribe')
  @TakesFormBody()
  @HttpCode(200)
  async unsubscribeInOneClick(
    @Query('token') token: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(new FollowStoreAlertLink(token));
    return sendNoticePage(
      reply,
      result.outcome !== 'invalid',
      storeAlertPage(result, this.environment.PUBLIC_URL),
    );
  }
}
