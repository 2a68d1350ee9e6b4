import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What says whether the process should get traffic: the API's and workers' probe, or the site's own. */
export interface ReadinessCheck {
  check(): Promise<{ status: 'ready' | 'unavailable' }>;
}

export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

/**
 * A small HTTP server of its own for monitors: `/health/live`, `/health/ready` and `/metrics`,
 * on a port apart from the public one (bound to OPERATIONS_HOST, loopback by default), so
 * Prometheus and probes need no session and the public port exposes nothing of it. The workers
 * have no other HTTP port; the API answers health on its public port too; the public site's
 * server has one of these as well.
 */
export class OperationsServer {
  private server?: Server;

  constructor(
    private readonly probe: ReadinessCheck,
    private readonly metrics?: MetricsSource,
  ) {}

  async listen(port: number, host: string): Promise<string> {
    const server = createServer((request, response) => void this.answer(request, response));
    server.keepAliveTimeout = 65_000; // longer than a scraper's idle keep-alive
    this.server = server;
    server.listen(port, host);
    await once(server, 'listening');
    return this.url!;
  }

  /** Where it listens, once it does. */
  get url(): string | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, { message: 'GET only' });
    try {
      if (path === '/health/live') return send(response, 200, liveness());
      if (path === '/health/ready') {
        const report = await this.probe.check();
        return send(response, report.status === 'ready' ? 200 : 503, report);
      }
      if (path === '/metrics' && this.metrics) {
        const body = await this.metrics.metrics();
        response.writeHead(200, { 'content-type': this.metrics.contentType });
        response.end(request.method === 'HEAD' ? undefined : body);
        return;
      }
      return send(response, 404, { message: 'Not found' });
    } catch (error) {
      return send(response, 500, { message: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** The process is up and its event loop turns: nothing else is asked of liveness. */
export function liveness() {
  return { status: 'live', uptimeSeconds: Math.round(process.uptime()) };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}
