/**
 * The reference of the listing benchmark: a bare `node:http` server that answers every request
 * with the same bytes, started by bench/listing.ts in a process of its own so that it does not
 * share the load generator's event loop.
 *
 * Over Node's IPC channel it receives `{ body (base64), contentType, headers? }`, listens on a free port of
 * 127.0.0.1 and answers `{ port }`. SIGTERM, SIGINT or the bench going away end it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareServerSetup {
  body: string;
  contentType: string;
  /** Sent as well: a compressed body's `content-encoding`. */
  headers?: Record<string, string>;
}

if (!process.send) {
  console.error('This script is started by bench/listing.ts (npm run bench:listing), which it answers.');
  process.exit(1);
}

process.once('message', (setup: BareServerSetup) => {
  const body = Buffer.from(setup.body, 'base64');
  const headers = {
    ...setup.headers,
    'content-type': setup.contentType,
    'content-length': String(body.length),
  };
  const server = createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.address() as AddressInfo).port });
  });
  const close = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
});
process.once('disconnect', () => process.exit(0));
