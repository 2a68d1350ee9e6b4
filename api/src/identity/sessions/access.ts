import type {} from '@fastify/cookie';
import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { type AdminGate, PUBLIC_ROUTE } from '../../infrastructure/http/access.js';
import { type Role, SessionService, type SignedInAccount, sameToken } from './session.service.js';

export const SESSION_COOKIE = 'session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

export const NOT_SIGNED_IN = 'Please sign in to continue.';
export const WRONG_ROLE = 'You do not have access to this page.';
export const BAD_XSRF_TOKEN = 'Missing or invalid XSRF token. Reload the page and try again.';

/**
 * Which role each area of the API belongs to. The prefix decides, whatever a controller declares,
 * so a route added under an area is guarded without anyone remembering to.
 */
export const AREA_ROLES: ReadonlyArray<readonly [prefix: string, role: Role]> = [
  ['/api/me/', 'user'],
  ['/api/merchant/', 'merchant'],
  ['/api/admin/', 'admin'],
];

export function areaRole(path: string): Role | undefined {
  return AREA_ROLES.find(([prefix]) => path.startsWith(prefix) || `${path}/` === prefix)?.[1];
}

// The marker is the HTTP infrastructure's (its health routes are public too); this guard reads it.
export { Public } from '../../infrastructure/http/access.js';

export type AccountRequest = FastifyRequest & { account?: SignedInAccount };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads the caller's session from `Authorization: Bearer` or the session cookie. */
export async function authenticate(
  sessions: SessionService,
  request: FastifyRequest,
): Promise<SignedInAccount | undefined> {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return sessions.find('bearer', authorization.slice(7).trim());
  const cookie = request.cookies?.[SESSION_COOKIE];
  return cookie ? sessions.find('cookie', cookie) : undefined;
}

/** Throws the 401, 403 or XSRF 403 a request deserves, or returns the account it may act as. */
export function authorize(
  account: SignedInAccount | undefined,
  request: FastifyRequest,
  requiredRole: Role | 'any',
): SignedInAccount {
  if (!account) throw new UnauthorizedException({ statusCode: 401, message: NOT_SIGNED_IN });
  if (requiredRole !== 'any' && account.role !== requiredRole) {
    throw new ForbiddenException({ statusCode: 403, message: WRONG_ROLE });
  }
  if (account.via === 'cookie' && !SAFE_METHODS.has(request.method)) {
    const header = request.headers[XSRF_HEADER];
    if (!sameToken(account.xsrfToken, typeof header === 'string' ? header : undefined)) {
      throw new ForbiddenException({ statusCode: 403, message: BAD_XSRF_TOKEN });
    }
  }
  return account;
}

/**
 * The one gate of every route: area routes need their role, other routes a session unless
 * marked public, and cookie sessions prove unsafe requests with the XSRF token.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccountRequest>();
    const account = await authenticate(this.sessions, request);
    request.account = account;
    const path = request.routeOptions.url ?? request.url;
    const role = areaRole(path);
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!role && isPublic) return true;
    authorize(account, request, role ?? 'any');
    return true;
  }
}

/** The signed-in account of a guarded route. */
export const CurrentAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SignedInAccount => {
    const account = context.switchToHttp().getRequest<AccountRequest>().account;
    if (!account) throw new UnauthorizedException({ statusCode: 401, message: NOT_SIGNED_IN });
    return account;
  },
);

/**
 * The merchant a merchant route acts for: always the session's, never a value from the body or
 * the query. Every merchant module scopes its reads and writes with it (see MerchantScope).
 */
export const CurrentMerchantId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const account = context.switchToHttp().getRequest<AccountRequest>().account;
  if (account?.role !== 'merchant') throw new ForbiddenException({ statusCode: 403, message: WRONG_ROLE });
  return account.id;
});

/** The queue dashboard's gate: an admin's session, checked as the access guard checks /api/admin/*. */
@Injectable()
export class SessionAdminGate implements AdminGate {
  constructor(private readonly sessions: SessionService) {}

  async admit(request: FastifyRequest): Promise<void> {
    authorize(await authenticate(this.sessions, request), request, 'admin');
  }
}
