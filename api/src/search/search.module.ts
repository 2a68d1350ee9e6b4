import { Module } from '@nestjs/common';
import { SuggestionCache } from './queries/suggestion-cache.js';
import { SearchSuggestions } from './queries/suggestions.js';
import { SearchController } from './search.controller.js';

/** The search box's suggestions (the coupon search itself is part of the public coupon lists). */
@Module({ controllers: [SearchController], providers: [SearchSuggestions, SuggestionCache] })
export class SearchModule {}
