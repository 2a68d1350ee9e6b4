import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { findClick } from '../clicks/queries/clicks.js';
import { readNetworkPostback } from '../feeds/network-postbacks.js';
import { feedSourceOfCoupon } from '../feeds/queries/feed-coupons.js';
import { feedSourcePostback } from '../feeds/queries/sources.js';
import { CurrentAccount, CurrentMerchantId, Public } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { validateForm } from '../infrastructure/http/forms.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import type { RawBodyRequest } from '../infrastructure/http/raw-body.js';
import { listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import { TakesFormBody } from '../infrastructure/http/request-guards.js';
import { INVALID_INPUT_MESSAGE } from '../infrastructure/http/validation.js';
import { EARNINGS, POSTBACK } from '../rules/engagement.js';
import { FEED_POSTBACK, FEED_POSTBACK_MESSAGES } from '../rules/feeds.js';
import {
  ChangeEarningState,
  IssuePostbackSecret,
  type NetworkPurchaseResult,
  RecordNetworkPurchase,
  RecordPurchase,
} from './commands/purchases.js';
import { EarningsPageQuery, PurchasePostbackDto } from './dto/earnings.dto.js';
import { basisPointsToPercent, rupees } from './money.js';
import type { EarningsEntry, EarningsHistory, EarningTimeline, PostbackSettings } from './queries/answers.js';
import {
  CASHBACK_SORTS,
  cashbacksPage,
  couponsPostbackMerchant,
  type EarningRow,
  type EarningsHolder,
  earningById,
  earningsHistory,
  type PostbackMerchant,
} from './queries/earnings.js';
import { earningTimeline } from './queries/timeline.js';

export const POSTBACK_PATH = '/api/postbacks/purchases';
export const SIGNATURE_HEADER = 'x-signature';

/** `sha256=<hex>` of the raw body under the secret, compared in constant time. */
export function isSignatureValid(secret: string, rawBody: Buffer, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header.trim().toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether the token is the secret, compared in constant time (digests of equal length). */
export function isTokenValid(secret: string, token: unknown): boolean {
  if (typeof token !== 'string' || token === '') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(secret), digest(token));
}

/** An earning as the back-office shows it: amounts in rupees, the rate in percent. */
const earningRecord = (row: EarningRow) => ({
  id: row.id,
  kind: row.kind,
  userId: row.userId,
  beneficiaryMerchantId: row.beneficiaryMerchantId,
  merchantId: row.merchantId,
  couponId: row.couponId,
  purchaseReference: row.purchaseReference,
  purchaseType: row.purchaseType,
  purchaseAmount: row.purchaseAmountPaise === null ? null : rupees(row.purchaseAmountPaise),
  ratePercent: basisPointsToPercent(row.rateBp),
  /** A flat rate's amount per purchase (then `ratePercent` is null). */
  rateRupees: row.flatRatePaise === null ? null : rupees(row.flatRatePaise),
  /** Above its store's cap: an admin confirms it, a network's approval does not. */
  overCap: row.overCap,
  /** Waits in the missing-cashback queue: approved there (credited) or rejected (cancelled). */
  heldForReview: row.heldForReview,
  cashback: rupees(row.amountPaise),
  state: row.state,
  referredUserId: row.referredUserId,
  clickId: row.clickId,
  networkSourceId: row.networkSourceId,
  networkCommission: row.networkCommissionPaise === null ? null : rupees(row.networkCommissionPaise),
  createdAt: row.createdAt,
  confirmedAt: row.confirmedAt,
  paidAt: row.paidAt,
  cancelledAt: row.cancelledAt,
  cancelReason: row.cancelReason,
});

/** An entry of a shopper's (or referring merchant's) purchase history. */
const historyEntry = (row: EarningRow): EarningsEntry => ({
  id: row.id,
  type: row.kind,
  couponId: row.couponId,
  merchantId: row.merchantId,
  purchaseType: row.kind === 'referral' ? 'referral' : row.purchaseType,
  purchaseAmount: row.purchaseAmountPaise === null ? null : rupees(row.purchaseAmountPaise),
  cashback: rupees(row.amountPaise),
  state: row.state,
  date: new Date(row.createdAt).toISOString(),
});

async function earningsOf(
  dataSource: DataSource,
  holder: EarningsHolder,
  id: number,
  query: EarningsPageQuery,
): Promise<EarningsHistory> {
  const page = Math.max(1, Number(query.page ?? 1));
  const perPage = Math.min(100, Math.max(1, Number(query.perPage ?? EARNINGS.perPage)));
  const { rows, sums } = await earningsHistory(dataSource, holder, id, perPage, (page - 1) * perPage);
  const totalOf = (state: string) => rupees(sums.find((sum) => sum.state === state)?.paise ?? 0);
  return {
    purchaseHistory: rows.map(historyEntry),
    totals: {
      pending: totalOf('pending'),
      confirmed: totalOf('confirmed'),
      paid: totalOf('paid'),
      cancelled: totalOf('cancelled'),
    },
    total: sums.reduce((count, sum) => count + sum.entries, 0),
    page,
    perPage,
  };
}

/** Purchases reported by merchants or affiliate networks, signed with the merchant's secret. */
@ApiTags('postbacks')
@Controller('postbacks')
export class PostbacksController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * The signature is checked before anything else is said about the body: a caller without the
   * secret learns nothing but 401 (and, for a click id, whether the click exists: 404). 201 for a
   * new purchase, 200 with the first record for a repeat.
   */
  @Public()
  @Post('purchases')
  async recordPurchase(
    @Req() request: RawBodyRequest,
    @Headers(SIGNATURE_HEADER) signature: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const body = request.body;
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const merchant =
      fields.clickId === undefined ? await this.couponsMerchant(fields) : await this.clicksMerchant(fields);
    if (
      !merchant?.secret ||
      !request.rawBody ||
      !isSignatureValid(merchant.secret, request.rawBody, signature)
    ) {
      throw new UnauthorizedException({ statusCode: 401, message: POSTBACK.badSignature });
    }
    const purchase = await validateForm(PurchasePostbackDto, body as Record<string, unknown>);
    const { earningId, created } = await this.commands.execute(new RecordPurchase(merchant.id, purchase));
    reply.status(created ? 201 : 200);
    const row = await earningById(this.dataSource, earningId);
    return earningRecord(row!);
  }

  /** The coupon names the merchant whose secret signs the report: without one nothing can be checked. */
  private async couponsMerchant(fields: Record<string, unknown>): Promise<PostbackMerchant | undefined> {
    const { couponId } = fields;
    const id = typeof couponId === 'number' || typeof couponId === 'string' ? String(couponId) : '';
    if (!/^\d{1,9}$/.test(id)) {
      throw new BadRequestException({
        statusCode: 400,
        message: INVALID_INPUT_MESSAGE,
        errors: { couponId: [POSTBACK.couponId] },
      });
    }
    return couponsPostbackMerchant(this.dataSource, Number(id));
  }

  /**
   * A click names its merchant: the report must be signed with that merchant's secret, so another
   * merchant's report of it fails as any bad signature does.
   */
  private async clicksMerchant(fields: Record<string, unknown>): Promise<PostbackMerchant> {
    if (typeof fields.clickId !== 'string') {
      throw new BadRequestException({
        statusCode: 400,
        message: INVALID_INPUT_MESSAGE,
        errors: { clickId: [POSTBACK.clickId] },
      });
    }
    const click = await findClick(this.dataSource.manager, fields.clickId);
    if (!click) throw new NotFoundException({ statusCode: 404, message: POSTBACK.unknownClick });
    return { id: click.merchantId, secret: click.secret };
  }
}

/** A source id as a path names it; anything else names no source (404, never a database error). */
const sourceIdOf = (text: string) => (/^\d{1,9}$/.test(text) ? Number(text) : null);

/**
 * Affiliate networks' postbacks, one address per feed source (`/api/postbacks/networks/:sourceId`):
 * GET with query parameters, or POST with a form or JSON body (the query's fields count too),
 * named as the source's mapping says. Networks call a fixed URL and sign nothing, so the source's
 * secret comes as the `token` parameter (a POST may sign its raw body as a merchant's postback
 * does instead). Nothing is read of the report before the token is checked.
 */
@ApiTags('postbacks')
@Public()
@Controller('postbacks/networks')
export class NetworkPostbacksController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get(':sourceId')
  fromQuery(
    @Param('sourceId') sourceId: string,
    @Req() request: RawBodyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.record(sourceId, request, reply);
  }

  @Post(':sourceId')
  @TakesFormBody()
  fromBody(
    @Param('sourceId') sourceId: string,
    @Req() request: RawBodyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.record(sourceId, request, reply);
  }

  /** 201 with the earning for a new purchase, 200 with it for a report of one recorded before. */
  private async record(sourceIdText: string, request: RawBodyRequest, reply: FastifyReply) {
    const sourceId = sourceIdOf(sourceIdText);
    const source = sourceId === null ? undefined : await feedSourcePostback(this.dataSource, sourceId);
    if (sourceId === null || !source) {
      throw new NotFoundException({ statusCode: 404, message: FEED_POSTBACK_MESSAGES.unknownSource });
    }
    const query = { ...(request.query as Record<string, unknown>) };
    const token = query[FEED_POSTBACK.tokenParam];
    delete query[FEED_POSTBACK.tokenParam];
    const signed =
      request.method === 'POST' &&
      request.rawBody !== undefined &&
      isSignatureValid(source.secret, request.rawBody, request.headers[SIGNATURE_HEADER]);
    if (!signed && !isTokenValid(source.secret, token)) {
      throw new UnauthorizedException({ statusCode: 401, message: FEED_POSTBACK_MESSAGES.badToken });
    }
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new BadRequestException({ statusCode: 400, message: FEED_POSTBACK_MESSAGES.unsupportedBody });
    }
    const report = readNetworkPostback(
      { ...query, ...(body as Record<string, unknown> | undefined) },
      source.mapping,
    );
    const click = await findClick(this.dataSource.manager, report.clickId);
    if (!click)
      throw new NotFoundException({ statusCode: 404, message: FEED_POSTBACK_MESSAGES.unknownClick });
    if ((await feedSourceOfCoupon(this.dataSource, click.couponId)) !== sourceId) {
      throw new NotFoundException({ statusCode: 404, message: FEED_POSTBACK_MESSAGES.otherSourceClick });
    }
    const { earningId, created }: NetworkPurchaseResult = await this.commands.execute(
      new RecordNetworkPurchase({ sourceId, ...report }),
    );
    reply.status(created ? 201 : 200);
    return earningRecord((await earningById(this.dataSource, earningId))!);
  }
}

@ApiTags('merchant')
@Controller('merchant')
export class MerchantEarningsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  private postbackSettings(secret: string): PostbackSettings {
    return {
      secret,
      url: `${this.environment.API_URL}${POSTBACK_PATH}`,
      signatureHeader: 'X-Signature',
      signature: 'sha256=<hex HMAC-SHA256 of the raw request body under the secret>',
    };
  }

  @Get('postback-secret')
  async postbackSecret(@CurrentMerchantId() merchantId: number) {
    return this.postbackSettings(await this.commands.execute(new IssuePostbackSecret(merchantId, false)));
  }

  @Post('postback-secret/rotate')
  @HttpCode(200)
  async rotatePostbackSecret(@CurrentMerchantId() merchantId: number) {
    return this.postbackSettings(await this.commands.execute(new IssuePostbackSecret(merchantId, true)));
  }

  /** Referral bonuses the merchant earned by bringing shoppers. */
  @Get('earnings')
  earnings(@CurrentMerchantId() merchantId: number, @Query() query: EarningsPageQuery) {
    return earningsOf(this.dataSource, 'merchant', merchantId, query);
  }
}

@ApiTags('me')
@Controller('me')
export class UserEarningsController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  /** Cashback on the shopper's purchases and referral bonuses, newest first, with totals by state. */
  @Get('earnings')
  earnings(@CurrentAccount() account: SignedInAccount, @Query() query: EarningsPageQuery) {
    return earningsOf(this.dataSource, 'shopper', account.id, query);
  }

  /**
   * One of the shopper's earnings with its timeline. Another shopper's earning is as unknown as
   * one that does not exist (404), so ids tell nothing about others' earnings.
   */
  @Get('earnings/:id')
  async timeline(
    @CurrentAccount() account: SignedInAccount,
    @Param('id', IdPipe) id: number,
  ): Promise<EarningTimeline> {
    const timeline = await earningTimeline(this.dataSource.manager, account.id, id, this.environment);
    if (!timeline) throw new NotFoundException({ statusCode: 404, message: EARNINGS.notFound });
    return timeline;
  }
}

const filterNumber = (value: unknown) =>
  Number.isInteger(value) && (value as number) > 0 ? (value as number) : undefined;

@ApiTags('admin')
@Controller('admin/cashbacks')
export class AdminCashbacksController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('cashbacks', CASHBACK_SORTS, 'createdAt', 'DESC');
    return listAnswer(query, reply, list, async (page) => {
      const { state, kind, userId, merchantId } = page.filter;
      const { rows, total } = await cashbacksPage(this.dataSource, page, {
        state: typeof state === 'string' ? state : null,
        kind: typeof kind === 'string' ? kind : null,
        userId: filterNumber(userId) ?? null,
        merchantId: filterNumber(merchantId) ?? null,
      });
      return { rows: rows.map(earningRecord), total };
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const row = await earningById(this.dataSource, id);
    if (!row) throw new NotFoundException({ statusCode: 404, message: EARNINGS.notFound });
    return earningRecord(row);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  async confirm(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new ChangeEarningState(id, 'confirmed'));
    return this.one(id);
  }

  @Post(':id/pay')
  @HttpCode(200)
  async pay(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new ChangeEarningState(id, 'paid'));
    return this.one(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new ChangeEarningState(id, 'cancelled'));
    return this.one(id);
  }
}
