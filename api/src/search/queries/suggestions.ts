import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { cashbackUpTo } from '../../cashback/queries/shown.js';
import { categoriesInShopOrder, couponSuggestions } from '../../coupons/queries/coupon-suggestions.js';
import { searchWords } from '../../coupons/queries/search.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { CATEGORY_SLUGS } from '../../rules/addresses.js';
import { SEARCH_SUGGESTIONS } from '../../rules/coupons.js';
import { storesNamedLike } from '../../storefront/queries/store-suggestions.js';
import type { Suggestions } from './answers.js';

/** What the search box offers as one types: stores, categories and coupons, a few of each. */
@Injectable()
export class SearchSuggestions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  async suggest(text: string): Promise<Suggestions> {
    const words = searchWords(text);
    if (words.length === 0) return { stores: [], categories: [], coupons: [] };
    const [stores, categories, coupons] = await Promise.all([
      this.stores(words),
      this.categories(words),
      couponSuggestions(this.dataSource, text),
    ]);
    return { stores, categories, coupons };
  }

  /** Stores whose name has every word as the start of one of its words, or close to one of them. */
  private async stores(words: string[]): Promise<Suggestions['stores']> {
    const stores = await storesNamedLike(this.dataSource, words);
    const cashback = await cashbackUpTo(
      this.dataSource,
      stores.map((store) => store.merchantId),
      [],
      this.environment,
    );
    return stores.map((store) => ({ ...store, cashback: cashback.store(store.merchantId) }));
  }

  /** The shop front's categories whose name has every word as the start of one of its words. */
  private async categories(words: string[]): Promise<Suggestions['categories']> {
    const rows = await categoriesInShopOrder(this.dataSource);
    return rows
      .filter(({ name }) => {
        const nameWords = name.toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u);
        return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
      })
      .slice(0, SEARCH_SUGGESTIONS.perKind)
      .map(({ id, name }) => ({
        id,
        name,
        slug:
          CATEGORY_SLUGS.find((category) => category.name.toLowerCase() === name.toLowerCase())?.slug ?? '',
      }));
  }
}
