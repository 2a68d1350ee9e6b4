import { Module } from '@nestjs/common';
import { SearchSuggestions } from './queries/suggestions.js';
import { SearchController } from './search.controller.js';

/** The search box's suggestions (the coupon search itself is part of the public coupon lists). */
@Module({ controllers: [SearchController], providers: [SearchSuggestions] })
export class SearchModule {}
