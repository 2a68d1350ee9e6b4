import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header lines as sent, by lower-case name. */
  headers: Map<string, string>;
  messageId: string;
}

/**
 * A real SMTP server for a test file: it accepts every mail and keeps it parsed. `hold()` makes
 * it stop answering the end of each message (the sender waits for its 250), so a test can kill a
 * sender while its mails are not yet accepted; a held mail whose sender vanished is not kept.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server?: SMTPServer;
  private holding = false;
  private held: Array<{ session: { closed?: boolean }; answer: () => void }> = [];
  /** Mails whose DATA was read while held: waiting for an answer. */
  heldCount = 0;

  get url(): string {
    const { port } = this.server!.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // Stopping closes lingering connections after a second instead of smtp-server's 30.
      closeTimeout: 1000,
      onData: (stream, session, callback) => {
        simpleParser(stream).then(
          (mail) => {
            const accept = () => {
              const to = [mail.to ?? []]
                .flat()
                .map((address) => address.text)
                .join(', ');
              this.received.push({
                to,
                subject: mail.subject ?? '',
                text: mail.text ?? '',
                html: mail.html || '',
                headers: new Map(
                  mail.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
                ),
                messageId: mail.messageId ?? '',
              });
              callback();
            };
            if (!this.holding) return accept();
            this.heldCount += 1;
            // Kept only if the client is still there when released: it would then get its 250.
            const client = session as { closed?: boolean };
            this.held.push({
              session: client,
              answer: () => (client.closed ? callback(new Error('gone')) : accept()),
            });
          },
          (error: Error) => callback(error),
        );
      },
      onClose: (session) => {
        (session as { closed?: boolean }).closed = true;
      },
    });
    // A client that vanishes (a killed worker) resets its connection: expected here.
    this.server.on('error', () => undefined);
    this.server.listen(0, '127.0.0.1');
    await once(this.server.server, 'listening');
  }

  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    this.heldCount = 0;
    for (const { answer } of held) answer();
  }

  /** Whether every client whose mail is held has hung up. */
  heldClientsGone(): boolean {
    return this.held.every(({ session }) => session.closed);
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return found;
}
