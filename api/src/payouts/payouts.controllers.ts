import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { CurrentAccount } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import { paiseToRupees, rupeesToPaise } from '../rules/money.js';
import {
  OPEN_PAYOUT_STATES,
  OPEN_PAYOUTS_FILTER,
  PAYOUT,
  PAYOUT_METHODS,
  PAYOUT_RULES,
  PAYOUT_STATES,
  type PayoutMethod,
} from '../rules/payouts.js';
import { ChangePayoutState, PayPayouts } from './commands/payout-states.js';
import { RequestPayout } from './commands/request-payout.js';
import {
  FailPayoutDto,
  PayoutsPageQuery,
  PayPayoutDto,
  PayPayoutsDto,
  RequestPayoutDto,
} from './dto/payouts.dto.js';
import type { RequestedPayout, ShopperBalance, ShopperPayoutsPage } from './queries/answers.js';
import {
  ADMIN_PAYOUT_SORTS,
  adminPayout,
  adminPayoutsPage,
  payoutById,
  payoutsByIds,
  shopperPayout,
  shopperPayoutsPage,
  shownBalanceOf,
} from './queries/payouts.js';

const rupees = (paise: number) => paiseToRupees(paise);

/** A shopper's balance, payout requests and payouts. */
@ApiTags('me')
@Controller('me')
export class ShopperPayoutsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  /** What the shopper may withdraw now, the smallest payout, and what is on its way or paid. */
  @Get('balance')
  async balance(@CurrentAccount() account: SignedInAccount): Promise<ShopperBalance> {
    const balance = await shownBalanceOf(this.dataSource, account.id);
    return {
      available: rupees(Math.max(0, balance.availablePaise)),
      minimum: rupees(rupeesToPaise(this.environment.PAYOUT_MIN_RUPEES)),
      confirmed: rupees(balance.confirmedPaise),
      inProgress: rupees(balance.inProgressPaise),
      paidOut: rupees(balance.paidOutPaise),
    };
  }

  /** The shopper's payouts, newest first; account numbers show their last four digits only. */
  @Get('payouts')
  async payouts(
    @CurrentAccount() account: SignedInAccount,
    @Query() query: PayoutsPageQuery,
  ): Promise<ShopperPayoutsPage> {
    const page = Math.max(1, Number(query.page ?? 1));
    const perPage = Math.min(100, Math.max(1, Number(query.perPage ?? PAYOUT_RULES.perPage)));
    const { rows, total } = await shopperPayoutsPage(
      this.dataSource,
      account.id,
      perPage,
      (page - 1) * perPage,
    );
    return { payouts: rows.map(shopperPayout), total, page, perPage };
  }

  @Post('payouts')
  async request(
    @CurrentAccount() account: SignedInAccount,
    @Body() body: RequestPayoutDto,
  ): Promise<RequestedPayout> {
    const id = await this.commands.execute(new RequestPayout(account.id, body));
    const row = await payoutById(this.dataSource, id);
    return { ...shopperPayout(row!), message: PAYOUT.requested };
  }
}

const STATE_FILTER = (state: unknown): string[] | null =>
  state === OPEN_PAYOUTS_FILTER
    ? [...OPEN_PAYOUT_STATES]
    : (PAYOUT_STATES as readonly unknown[]).includes(state)
      ? [state as string]
      : null;

const positiveInteger = (value: unknown) =>
  Number.isInteger(value) && (value as number) > 0 && (value as number) <= 2_147_483_647
    ? (value as number)
    : null;

/** The admins' payout run: the queue, and moving payouts through it. */
@ApiTags('admin')
@Controller('admin/payouts')
export class AdminPayoutsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * react-admin's list: oldest first by default (the queue's order). Filters: `state` (one state,
   * or `open` for requested and processing), `userId`, `method`.
   */
  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('payouts', ADMIN_PAYOUT_SORTS, 'requestedAt', 'ASC');
    return listAnswer(query, reply, list, async (page) => {
      const { state, userId, method } = page.filter;
      const { rows, total } = await adminPayoutsPage(this.dataSource, page, {
        states: STATE_FILTER(state),
        userId: positiveInteger(typeof userId === 'string' ? Number(userId) : userId),
        method: (PAYOUT_METHODS as readonly unknown[]).includes(method) ? (method as PayoutMethod) : null,
      });
      return { rows: rows.map(adminPayout), total };
    });
  }

  /** Several payouts of a payment run marked paid at once, one bank reference each, all or none. */
  @Post('pay')
  @HttpCode(200)
  async payMany(@Body() body: PayPayoutsDto) {
    await this.commands.execute(new PayPayouts(body.payouts));
    const rows = await payoutsByIds(
      this.dataSource,
      body.payouts.map((payout) => payout.id),
    );
    return rows.map(adminPayout);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const row = await payoutById(this.dataSource, id);
    if (!row) throw new NotFoundException({ statusCode: 404, message: PAYOUT.notFound });
    return adminPayout(row);
  }

  @Post(':id/process')
  @HttpCode(200)
  async process(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new ChangePayoutState(id, 'processing'));
    return this.one(id);
  }

  @Post(':id/pay')
  @HttpCode(200)
  async pay(@Param('id', IdPipe) id: number, @Body() body: PayPayoutDto) {
    await this.commands.execute(new ChangePayoutState(id, 'paid', { bankReference: body.bankReference }));
    return this.one(id);
  }

  @Post(':id/fail')
  @HttpCode(200)
  async fail(@Param('id', IdPipe) id: number, @Body() body: FailPayoutDto) {
    await this.commands.execute(new ChangePayoutState(id, 'failed', { reason: body.reason }));
    return this.one(id);
  }
}
