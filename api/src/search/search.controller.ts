import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SearchText } from '../http/field-decorators.js';
import { Public } from '../identity/sessions/access.js';
import { COUPON_LISTING } from '../rules/coupons.js';
import { SearchSuggestions } from './queries/suggestions.js';

class SuggestQueryDto {
  @SearchText(COUPON_LISTING.maxSearchLength, COUPON_LISTING.searchInvalid)
  q?: string;
}

@ApiTags('search')
@Public()
@Controller('search')
export class SearchController {
  constructor(private readonly suggestions: SearchSuggestions) {}

  /** Stores, categories and coupons for the search box, as one types. */
  @Get('suggest')
  suggest(@Query() query: SuggestQueryDto) {
    return this.suggestions.suggest(query.q ?? '');
  }
}
