import { BadRequestException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HTTP_MESSAGES, LIST_LIMITS } from '../../rules/http.js';

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

/** A react-admin list: its resource (as `Content-Range` names it), sortable fields and default page. */
export interface ListDefinition<F extends string> {
  resource: string;
  sortable: readonly F[];
  defaults: { sortField: F; order: 'ASC' | 'DESC'; perPage: number };
}

/** A list sorted by `sortField` unless asked otherwise, 25 rows a page (react-admin's default). */
export function reactAdminList<F extends string>(
  resource: string,
  sortable: readonly F[],
  sortField: F,
  order: 'ASC' | 'DESC',
): ListDefinition<F> {
  return { resource, sortable, defaults: { sortField, order, perPage: 25 } };
}

/**
 * Answers one page of a react-admin list: reads `sort`, `range` and `filter`, the page's rows
 * and total through `read`, and sends the `Content-Range` ra-data-simple-rest pages with.
 */
export async function listAnswer<F extends string, R>(
  query: Record<string, unknown>,
  reply: FastifyReply,
  list: ListDefinition<F>,
  read: (page: ListRequest<F>) => Promise<{ rows: R[]; total: number }>,
): Promise<R[]> {
  const page = parseListRequest(query, list.sortable, list.defaults);
  const { rows, total } = await read(page);
  sendRange(reply, list.resource, page.offset, rows.length, total);
  return rows;
}

/** The 400 of a list filter whose value the list does not take (not a database error later). */
export function badFilter(name: string): never {
  throw new BadRequestException({ statusCode: 400, message: HTTP_MESSAGES.badFilter(name) });
}

/** A text filter of a list (a search, a status): at most `maxLength` characters, one of `allowed` if given. */
export function filterText(
  filter: Record<string, unknown>,
  name: string,
  {
    allowed,
    maxLength = LIST_LIMITS.filterTextMax,
  }: { allowed?: readonly string[]; maxLength?: number } = {},
): string | undefined {
  const value = filter[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > maxLength || (allowed && !allowed.includes(value)))
    badFilter(name);
  return value;
}

/** A yes-or-no filter of a list, as JSON or as react-admin's select sends it (`"true"`). */
export function filterFlag(filter: Record<string, unknown>, name: string): boolean | undefined {
  const value = filter[name];
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return badFilter(name);
}

/** A filter by a row's id (a number, or its digits as a text), within PostgreSQL's integer. */
export function filterId(filter: Record<string, unknown>, name: string): number | undefined {
  const value = filter[name];
  if (value === undefined) return undefined;
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 2_147_483_647) badFilter(name);
  return id as number;
}
