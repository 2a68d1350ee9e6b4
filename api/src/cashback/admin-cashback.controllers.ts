import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { adminNames } from '../identity/queries/profiles.js';
import { CurrentAccount } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { listAnswer, parseListRequest, reactAdminList } from '../infrastructure/http/react-admin.js';
import {
  CASHBACK_CHANGE_SCOPES,
  CASHBACK_LIMITS,
  CASHBACK_MESSAGES,
  CASHBACK_PROPOSAL_STATES,
  type CashbackProposal,
  fromStoredRate,
  type StoreCashback,
} from '../rules/cashback.js';
import { paiseToRupees } from '../rules/money.js';
import { ADMIN_STORE_SORTS, adminStorePage } from '../storefront/queries/store-list.js';
import { DecideCashbackProposal } from './commands/proposals.js';
import { SetCouponCashback, SetStoreCashback } from './commands/store-cashback.js';
import { CouponCashbackDto, fullTexts, StoreCashbackDto } from './dto/cashback.dto.js';
import { couponRatesPage, HISTORY_SORTS, historyPage } from './queries/history.js';
import { PROPOSAL_SORTS, type ProposalRow, proposalById, proposalPage } from './queries/proposals.js';
import { couponCashback, storeCashback, storeCashbackStates } from './queries/rates.js';

function badFilter(name: string): never {
  throw new BadRequestException({ statusCode: 400, message: `The filter ${name} is not valid.` });
}

/** A filter's id: absent (null), or a whole number an id can be. */
function idFilter(name: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) badFilter(name);
  return id;
}

function textFilter(name: string, value: unknown, allowed: readonly string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !allowed.includes(value)) badFilter(name);
  return value;
}

/** A store's cashback as the back-office edits it: its record, with its name and `null` for the default base. */
type CashbackRecord = Omit<StoreCashback, 'storeId'> & {
  id: number;
  storeName: string;
  hidden: boolean;
  /** The store's own base rate; null: the site's default (`base` says which it is). */
  ownBase: StoreCashback['base'] | null;
  updatedAt: string | null;
};

/**
 * Stores' cashback for admins, one react-admin resource per part: `cashback-rates` (a store's
 * rates, terms and settings, its id the store's), `cashback-changes` (the history),
 * `coupon-cashback-rates` (coupons' own rates, its id the coupon's) and `cashback-proposals`
 * (rates feed sources propose, accepted or dismissed).
 */
@ApiTags('admin')
@Controller('admin')
export class AdminCashbackController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  private async records(
    stores: Array<{ id: number; name: string; hidden: boolean }>,
  ): Promise<CashbackRecord[]> {
    const ids = stores.map((store) => store.id);
    const [answers, states] = await Promise.all([
      storeCashback(this.dataSource, ids, this.environment),
      storeCashbackStates(this.dataSource, ids),
    ]);
    return stores.map((store) => {
      const { storeId: _, ...answer } = answers.get(store.id)!;
      const state = states.get(store.id)!;
      return {
        id: store.id,
        storeName: store.name,
        hidden: store.hidden,
        ...answer,
        ownBase: state.base === null ? null : fromStoredRate(state.base),
        updatedAt: state.updatedAt === null ? null : new Date(state.updatedAt).toISOString(),
      };
    });
  }

  /** Every store with its cashback; filters: `q` (in the store's name), `id` (getMany). */
  @Get('cashback-rates')
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('cashback-rates', ADMIN_STORE_SORTS, 'name', 'ASC');
    return listAnswer(query, reply, list, async (page) => {
      const { q, id } = page.filter;
      if (q !== undefined && (typeof q !== 'string' || q.length > 100)) badFilter('q');
      const ids = id === undefined ? undefined : [id].flat().map((each) => idFilter('id', each)!);
      const { rows, total } = await adminStorePage(this.dataSource, page, {
        q: q as string | undefined,
        ids,
      });
      return { rows: await this.records(rows), total };
    });
  }

  @Get('cashback-rates/:storeId')
  async one(@Param('storeId', IdPipe) storeId: number) {
    const page = parseListRequest({}, ADMIN_STORE_SORTS, { sortField: 'id', order: 'ASC', perPage: 1 });
    const [store] = (await adminStorePage(this.dataSource, page, { ids: [storeId] })).rows;
    if (!store) throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.storeNotFound });
    return (await this.records([store]))[0];
  }

  /** Changes what the body names (react-admin sends the whole record: only the editable fields are read). */
  @Put('cashback-rates/:storeId')
  async set(
    @Param('storeId', IdPipe) storeId: number,
    @Body() body: StoreCashbackDto,
    @CurrentAccount() admin: SignedInAccount,
  ) {
    await this.commands.execute(
      new SetStoreCashback(
        storeId,
        {
          ...(body.base !== undefined && { base: body.base }),
          ...(body.categories !== undefined && { categories: body.categories }),
          ...(body.terms !== undefined && { terms: fullTexts(body.terms) }),
          ...(body.exclusions !== undefined && { exclusions: fullTexts(body.exclusions) }),
          ...(body.confirmDays !== undefined && { confirmDays: body.confirmDays }),
          ...(body.claimWindowDays !== undefined && { claimWindowDays: body.claimWindowDays }),
          ...(body.capRupees !== undefined && { capRupees: body.capRupees }),
        },
        admin.id,
        body.note || null,
      ),
    );
    return this.one(storeId);
  }

  /** The history, newest first; filters: `storeId`, `scope`, `couponId`. */
  @Get('cashback-changes')
  async history(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = {
      resource: 'cashback-changes',
      sortable: HISTORY_SORTS,
      defaults: { sortField: 'changedAt', order: 'DESC', perPage: CASHBACK_LIMITS.historyPerPage },
    } as const;
    return listAnswer(query, reply, list, async (page) => {
      const { rows, total } = await historyPage(this.dataSource, page, {
        storeId: idFilter('storeId', page.filter.storeId),
        scope: textFilter('scope', page.filter.scope, CASHBACK_CHANGE_SCOPES),
        couponId: idFilter('couponId', page.filter.couponId),
      });
      const names = await adminNames(
        this.dataSource,
        rows.flatMap((row) => (row.adminId === null ? [] : [row.adminId])),
      );
      const named = rows.map((row) => ({
        ...row,
        adminName: row.adminId === null ? null : (names.get(row.adminId) ?? null),
      }));
      return { rows: named, total };
    });
  }

  /** Coupons with a rate of their own; filters: `storeId`, `id` (getMany). */
  @Get('coupon-cashback-rates')
  async couponRates(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const list = reactAdminList('coupon-cashback-rates', ['id'] as const, 'id', 'ASC');
    return listAnswer(query, reply, list, async (page) => {
      const { id } = page.filter;
      const ids = id === undefined ? null : [id].flat().map((each) => idFilter('id', each)!);
      const { rows, total } = await couponRatesPage(this.dataSource, page.offset, page.limit, {
        storeId: idFilter('storeId', page.filter.storeId),
        ids,
      });
      return { rows: rows.map((row) => ({ ...row, rate: fromStoredRate(row.rate) })), total };
    });
  }

  /** A coupon's own rate (null: its store's rates apply). */
  @Get('coupon-cashback-rates/:couponId')
  async couponRate(@Param('couponId', IdPipe) couponId: number) {
    const coupon = await couponCashback(this.dataSource, couponId);
    if (!coupon) throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.couponNotFound });
    return { id: couponId, storeId: coupon.storeId, rate: coupon.rate && fromStoredRate(coupon.rate) };
  }

  @Put('coupon-cashback-rates/:couponId')
  async setCouponRate(
    @Param('couponId', IdPipe) couponId: number,
    @Body() body: CouponCashbackDto,
    @CurrentAccount() admin: SignedInAccount,
  ) {
    await this.commands.execute(new SetCouponCashback(couponId, body.rate, admin.id, body.note || null));
    return this.couponRate(couponId);
  }

  private async proposalAnswers(rows: ProposalRow[]): Promise<CashbackProposal[]> {
    const states = await storeCashbackStates(
      this.dataSource,
      rows.map((row) => row.storeId),
    );
    return rows.map((row) => {
      const base = states.get(row.storeId)?.base ?? null;
      return {
        id: row.id,
        storeId: row.storeId,
        sourceId: row.sourceId,
        payout: fromStoredRate(row.payout),
        sharePercent: paiseToRupees(row.shareBp),
        rate: fromStoredRate(row.rate),
        currentRate: base && fromStoredRate(base),
        state: row.state,
        proposedAt: new Date(row.proposedAt).toISOString(),
        decidedAt: row.decidedAt === null ? null : new Date(row.decidedAt).toISOString(),
      };
    });
  }

  /** Proposals, open ones first by default; filters: `state`, `storeId`, `sourceId`. */
  @Get('cashback-proposals')
  async proposals(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('cashback-proposals', PROPOSAL_SORTS, 'proposedAt', 'DESC');
    return listAnswer(query, reply, list, async (page) => {
      const { rows, total } = await proposalPage(this.dataSource, page, {
        state: textFilter('state', page.filter.state, CASHBACK_PROPOSAL_STATES),
        storeId: idFilter('storeId', page.filter.storeId),
        sourceId: idFilter('sourceId', page.filter.sourceId),
      });
      return { rows: await this.proposalAnswers(rows), total };
    });
  }

  @Get('cashback-proposals/:id')
  async proposal(@Param('id', IdPipe) id: number) {
    const row = await proposalById(this.dataSource, id);
    if (!row) throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.proposalNotFound });
    return (await this.proposalAnswers([row]))[0];
  }

  /** The proposed rate becomes the store's base rate. */
  @Post('cashback-proposals/:id/accept')
  @HttpCode(200)
  async accept(@Param('id', IdPipe) id: number, @CurrentAccount() admin: SignedInAccount) {
    await this.commands.execute(new DecideCashbackProposal(id, 'accept', admin.id));
    return this.proposal(id);
  }

  @Post('cashback-proposals/:id/dismiss')
  @HttpCode(200)
  async dismiss(@Param('id', IdPipe) id: number, @CurrentAccount() admin: SignedInAccount) {
    await this.commands.execute(new DecideCashbackProposal(id, 'dismiss', admin.id));
    return this.proposal(id);
  }
}
