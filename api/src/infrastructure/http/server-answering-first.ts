import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * Fastify's server factory for a node:http server that offers each request to `first`, and to
 * Fastify when `first` declines it (returns false). The server keeps Fastify's own connection
 * settings.
 */
export function serverAnsweringFirst(
  first: (request: IncomingMessage, response: ServerResponse) => boolean,
): FastifyServerFactory {
  return (handler, options) => {
    const server = createServer((request, response) => {
      if (!first(request, response)) handler(request, response);
    });
    // As Fastify sets them on a server it makes (its options carry its defaults by now).
    const { keepAliveTimeout, requestTimeout } = options as {
      keepAliveTimeout?: number;
      requestTimeout?: number;
    };
    if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
    if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
    return server;
  };
}
