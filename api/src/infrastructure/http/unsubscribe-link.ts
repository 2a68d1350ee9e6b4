import type { FastifyReply } from 'fastify';
import type { Language } from '../../rules/engagement.js';
import { linkLanguage } from './languages.js';

/** A mailed link's page as the answer: HTML that is one reader's (never cached), 400 for a link that is not one. */
export function sendNoticePage(reply: FastifyReply, valid: boolean, page: string): string {
  reply.status(valid ? 200 : 400).header('content-type', 'text/html; charset=utf-8');
  reply.header('cache-control', 'no-store');
  return page;
}

/** A feature's unsubscribe link: the shape of its token and the pages its GET shows. */
export interface UnsubscribeLinkPages {
  /** Whether the token is one of the link's at all (signed and well formed), before any lookup. */
  isShaped(token: unknown): boolean;
  /** The question, with a button that posts to the link's own address. */
  ask(language: Language): string;
  /** The page of a link that is not one. */
  invalid(language: Language): string;
}

/**
 * The GET of a mail's unsubscribe link (RFC 8058): a page that asks, in the language the link
 * names or else the browser's. Nothing changes on a GET, since mail scanners follow every link of
 * a mail; the page's button, like a mail client's one-click, posts to the same address, whose
 * route acts through the feature's command and answers with `sendNoticePage`.
 */
export function unsubscribeQuestion(
  reply: FastifyReply,
  link: { token: unknown; lang: unknown; acceptLanguage: unknown },
  pages: UnsubscribeLinkPages,
): string {
  const language = linkLanguage(link.lang, link.acceptLanguage);
  const shaped = pages.isShaped(link.token);
  return sendNoticePage(reply, shaped, shaped ? pages.ask(language) : pages.invalid(language));
}
