import type { Logger } from '@nestjs/common';
import pg from 'pg';

/**
 * A PostgreSQL LISTEN connection on some channels, kept open across losses (a new connection a
 * second later). `onChange` runs on every notification and also whenever the connection starts or
 * is lost, since changes may have gone unnoticed meanwhile; `listening` is false while it is down,
 * so what relies on it (a per-process cache of ready answers) keeps nothing then. The one LISTEN
 * loop of the product: the ready-answer caches and the mail sender use it.
 */
export class ChangeListener {
  listening = false;
  private client?: pg.Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly channels: readonly string[],
    private readonly onChange: () => void,
    private readonly logger: Pick<Logger, 'warn'>,
    /** What the loss of the connection means, for the warning. */
    private readonly whileDown = 'ready answers off until PostgreSQL notifications return',
  ) {}

  start(): void {
    void this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const reconnect = () => {
      if (this.stopped) return;
      this.listening = false;
      this.onChange();
      client.removeAllListeners();
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('error', reconnect);
    client.on('notification', () => this.onChange());
    try {
      // Known before connecting, so a shutdown meanwhile ends this client too.
      this.client = client;
      await client.connect();
      await client.query(this.channels.map((channel) => `LISTEN ${channel}`).join('; '));
      if (this.stopped) return;
      this.onChange();
      this.listening = true;
    } catch (error) {
      this.logger.warn(`LISTEN ${this.channels.join(', ')}: ${(error as Error).message}; ${this.whileDown}`);
      reconnect();
    }
  }
}
