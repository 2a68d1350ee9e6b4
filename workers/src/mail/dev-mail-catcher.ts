import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { keepDevMail } from '@offers/api/mail/dev-mailbox';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { DataSource } from 'typeorm';

/**
 * A local SMTP server for development without `SMTP_URL`: it keeps every mail it receives in
 * `dev_mailbox`, which admins read at `GET /api/admin/dev-mailbox`, so confirmation links and
 * newsletters can be followed without Docker or a real mail account.
 */
export class DevMailCatcher {
  private server?: SMTPServer;

  constructor(private readonly dataSource: DataSource) {}

  /** Starts listening on a free local port; returns the SMTP URL to send to. */
  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 10 * 1024 * 1024,
      // Stopping closes lingering connections after a second instead of smtp-server's 30.
      closeTimeout: 1000,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) =>
            keepDevMail(this.dataSource, {
              sender: mail.from?.text ?? '',
              recipients: addressText(mail.to),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: mail.html || '',
            }),
          )
          .then(
            () => callback(),
            (error: Error) => callback(error),
          );
      },
    });
    // A sender that goes away mid-conversation resets its connection; the server carries on.
    this.server.on('error', () => undefined);
    this.server.listen(0, '127.0.0.1');
    await once(this.server.server, 'listening');
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function addressText(to: unknown): string {
  const list = [to ?? []].flat() as Array<{ text?: string }>;
  return list.map((address) => address.text ?? '').join(', ');
}
