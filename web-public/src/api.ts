/** Calls to the API on this site's origin. Cookie sessions prove unsafe requests with the XSRF token. */

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
  }
}

function cookie(name: string): string | undefined {
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined;
}

export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const xsrf = cookie('XSRF-TOKEN');
  if (method !== 'GET' && method !== 'HEAD' && xsrf) headers['x-xsrf-token'] = xsrf;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'Network error');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const problem = (typeof body === 'object' && body ? body : {}) as {
      message?: unknown;
      errors?: FieldErrors;
    };
    const message = typeof problem.message === 'string' ? problem.message : response.statusText;
    throw new ApiError(response.status, message, problem.errors ?? {});
  }
  return body as T;
}

/** `/api/media/<id>` images come in fixed widths; anything else is used as it is. */
export { MEDIA_WIDTHS } from './forms/rules';

export function isMediaUrl(url: string | null | undefined): url is string {
  return typeof url === 'string' && url.startsWith('/api/media/');
}

// ---------------------------------------------------------------------------------------------
// Shapes of the API's answers

export type {
  Category,
  CouponCard,
  CouponPage,
  DataFact,
  DataSharedWith,
  EarningsHistory as Earnings,
  EarningTimeline,
  EarningTimelineStep as TimelineStep,
  HomePage as Home,
  Me,
  PersonDataSummary,
  PictureTexts,
  PublicBanner as Banner,
  ReferralInvitation as Referral,
  RequestedPayout,
  SessionSummary,
  ShopperBalance as Balance,
  ShopperPayout as Payout,
  ShopperPayoutsPage as PayoutsPage,
  StoreList,
  StorePage as Store,
  StorePageProduct as Product,
  StoreSummary,
  Suggestions,
  UserProfile as Profile,
} from '@offers/api/contracts';
