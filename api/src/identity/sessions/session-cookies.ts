import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE, XSRF_COOKIE } from './access.js';
import type { NewSession } from './session.service.js';

/**
 * The session cookie is httpOnly and SameSite=Lax; the XSRF cookie is readable by the web apps,
 * which echo it in `X-XSRF-TOKEN` on every unsafe request.
 */
export function setSessionCookies(reply: FastifyReply, session: NewSession, secure: boolean): void {
  const common = { path: '/', sameSite: 'lax' as const, secure, expires: session.expiresAt };
  reply.setCookie(SESSION_COOKIE, session.cookieToken, { ...common, httpOnly: true });
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, { ...common, httpOnly: false });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(XSRF_COOKIE, { path: '/' });
}
