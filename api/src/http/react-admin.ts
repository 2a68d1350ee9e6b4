import { BadRequestException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HTTP_MESSAGES, LIST_LIMITS } from '../rules/http.js';

/** One page of a react-admin list (ra-data-simple-rest: `sort`, `range`, `filter` as JSON). */
export interface ListRequest<F extends string> {
  sortField: F;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  filter: Record<string, unknown>;
}

const MAX_PAGE = LIST_LIMITS.maxPerPage;

function parseJson(name: string, text: unknown): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(String(text));
  } catch {
    throw new BadRequestException({ statusCode: 400, message: `The ${name} parameter must be JSON.` });
  }
}

export function parseListRequest<F extends string>(
  query: Record<string, unknown>,
  sortable: readonly F[],
  defaults: { sortField: F; order: 'ASC' | 'DESC'; perPage: number },
): ListRequest<F> {
  const sort = parseJson('sort', query.sort) ?? [defaults.sortField, defaults.order];
  const range = parseJson('range', query.range) ?? [0, defaults.perPage - 1];
  const filter = parseJson('filter', query.filter) ?? {};
  const valid =
    Array.isArray(sort) &&
    sortable.includes(sort[0]) &&
    ['ASC', 'DESC'].includes(String(sort[1]).toUpperCase()) &&
    Array.isArray(range) &&
    Number.isInteger(range[0]) &&
    Number.isInteger(range[1]) &&
    range[0] >= 0 &&
    range[1] >= range[0] &&
    typeof filter === 'object' &&
    filter !== null &&
    !Array.isArray(filter);
  if (!valid) {
    throw new BadRequestException({
      statusCode: 400,
      message: `Sort by one of ${sortable.join(', ')}; range is [first, last]; filter is an object.`,
    });
  }
  const [first, last] = range as [number, number];
  // Integers as large as 1e300 pass the checks above but are no row PostgreSQL can reach (and
  // no bigint it accepts): a range starts within the first rows and asks for a sane number.
  if (first > LIST_LIMITS.maxOffset || last - first + 1 > LIST_LIMITS.maxRequestedRows) {
    throw new BadRequestException({ statusCode: 400, message: HTTP_MESSAGES.listBounds });
  }
  return {
    sortField: sort[0] as F,
    order: String(sort[1]).toUpperCase() as 'ASC' | 'DESC',
    offset: first,
    limit: Math.min(last - first + 1, MAX_PAGE),
    filter: filter as Record<string, unknown>,
  };
}

/**
 * A total order for a TypeORM find: the chosen field, then the id in the same direction. Without
 * the id, rows that tie on the field may come back in any order from one query to the next, and
 * paging through them repeats some and skips others.
 */
export function entityOrder<F extends string>(page: ListRequest<F>, field: string = page.sortField) {
  return { [field]: page.order, id: page.order } as Record<string, 'ASC' | 'DESC'>;
}

/** The same total order as SQL, for lists read with a query: `column ORDER, id ORDER`. */
export function sqlOrder<F extends string>(page: ListRequest<F>, column: string): string {
  return column === 'id' ? `id ${page.order}` : `${column} ${page.order}, id ${page.order}`;
}

/** `Content-Range: coupons 0-4/23`, which ra-data-simple-rest reads for the total. */
export function sendRange(
  reply: FastifyReply,
  resource: string,
  offset: number,
  count: number,
  total: number,
) {
  const last = count === 0 ? offset : offset + count - 1;
  reply.header('Content-Range', `${resource} ${offset}-${last}/${total}`);
}
