import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../identity/sessions/access.js';
import { SearchText } from '../infrastructure/http/field-decorators.js';
import { COUPON_LISTING } from '../rules/coupons.js';
import { SuggestionCache } from './queries/suggestion-cache.js';
import { SearchSuggestions } from './queries/suggestions.js';

class SuggestQueryDto {
  @SearchText(COUPON_LISTING.maxSearchLength, COUPON_LISTING.searchInvalid)
  q?: string;
}

@ApiTags('search')
@Public()
@Controller('search')
export class SearchController {
  constructor(
    private readonly suggestions: SearchSuggestions,
    private readonly cache: SuggestionCache,
  ) {}

  /** Stores, categories and coupons for the search box, as one types. */
  @Get('suggest')
  @Header('Content-Type', 'application/json; charset=utf-8')
  suggest(@Query() query: SuggestQueryDto, @Req() request: FastifyRequest): Promise<Buffer> {
    const text = query.q ?? '';
    return this.cache.get(text, request.url, async () =>
      JSON.stringify(await this.suggestions.suggest(text)),
    );
  }
}
