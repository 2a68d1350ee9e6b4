import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { type AccountRequest, Public } from '../identity/sessions/access.js';
import { addressGroup } from '../infrastructure/http/client-address.js';
import { SearchText, WholeNumber } from '../infrastructure/http/field-decorators.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { COUPON_LISTING, COUPON_SORTS, COUPON_VOTES } from '../rules/coupons.js';
import { RevealCoupon } from './commands/reveal.js';
import { VoteOnCoupon } from './commands/vote.js';
import { ListingCache } from './queries/listing-cache.js';
import { CouponListings } from './queries/listings.js';

const SORTS = [...COUPON_SORTS, 'top'] as const;

class VoteDto {
  @IsBoolean({ message: COUPON_VOTES.workedRequired })
  worked!: boolean;
}

class ListingQueryDto {
  @IsOptional()
  @IsIn(SORTS, { message: `Sort by one of ${SORTS.join(', ')}.` })
  sort: (typeof SORTS)[number] = 'popular';

  /** One category id or several (`category=1,3` or `category=1&category=3`). */
  @IsOptional()
  @Transform(({ value }) =>
    [value]
      .flat()
      .flatMap((item) => String(item).split(','))
      .map((item) => (/^\d{1,9}$/.test(item) ? Number(item) : item)),
  )
  @IsInt({ each: true, message: 'Categories are numbers.' })
  category?: number[];

  @IsOptional()
  @WholeNumber('A merchant id is a number.', 'A merchant id is a number.', 1, 2_147_483_647)
  merchant?: number;

  @SearchText(COUPON_LISTING.maxSearchLength, COUPON_LISTING.searchInvalid)
  q?: string;

  @IsOptional()
  @WholeNumber('Page is a number from 1.', 'Page is a number from 1.', 1, 100_000)
  page = 1;

  @IsOptional()
  @WholeNumber(
    'perPage is a number.',
    `perPage is a number from 1 to ${COUPON_LISTING.maxPerPage}.`,
    1,
    COUPON_LISTING.maxPerPage,
  )
  perPage: number = COUPON_LISTING.defaultPerPage;
}

/**
 * Who votes: the signed-in account, else the client address (an IPv6 network by its /64). A
 * cookie would let one script vote again and again by dropping it, so anonymous votes are one
 * per address whatever the cookie: a household or office behind one address votes once a day.
 */
function visitorOf(request: AccountRequest): string {
  if (request.account) return `${request.account.role}:${request.account.id}`;
  return `address:${addressGroup(request.ip)}`;
}

@ApiTags('coupons')
@Public()
@Controller()
export class PublicCouponsController {
  constructor(
    private readonly listings: CouponListings,
    private readonly cache: ListingCache,
    private readonly commands: CommandBus,
  ) {}

  /** Live coupons: popular, newest, A-Z, best, expiring first, or top offers. Never the codes. */
  @Get('coupons')
  @Header('Content-Type', 'application/json; charset=utf-8')
  list(@Query() query: ListingQueryDto, @Req() request: FastifyRequest): Promise<Buffer> {
    const listing = {
      sort: query.sort,
      categoryIds: query.category ? [...new Set(query.category)].sort((a, b) => a - b) : undefined,
      merchantId: query.merchant,
      q: query.q || undefined,
      page: query.page,
      perPage: query.perPage,
    };
    // A search, or a list with nothing in it (a page past the last, an id that names nothing), is
    // kept apart: however many are asked, they never evict the lists everyone reads.
    let empty = false;
    return this.cache.get(
      JSON.stringify(listing),
      request.url,
      async () => {
        const page = await this.listings.find(listing);
        empty = page.data.length === 0;
        return JSON.stringify(page);
      },
      () => listing.q !== undefined || empty,
    );
  }

  /** The code and where to use it; counts a click towards the coupon's popularity. */
  @Post('coupons/:id/reveal')
  @HttpCode(200)
  reveal(@Param('id', IdPipe) id: number, @Req() request: FastifyRequest) {
    return this.commands.execute(new RevealCoupon(id, request.ip));
  }

  /**
   * "Did this code work?" One vote per visitor, coupon and day; a later vote that day replaces the
   * earlier one. Counted by the workers into the cards' success rate.
   */
  @Post('coupons/:id/votes')
  @HttpCode(202)
  async vote(@Param('id', IdPipe) id: number, @Body() body: VoteDto, @Req() request: AccountRequest) {
    await this.commands.execute(new VoteOnCoupon(id, visitorOf(request), body.worked));
    return { statusCode: 202, message: 'Thank you.' };
  }

  @Get('categories')
  categories() {
    return this.listings.categories();
  }
}
