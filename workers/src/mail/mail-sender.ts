import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ChangeListener, Environment, Metrics } from '@offers/api/platform';
import {
  countCampaignMail,
  type MailToSend,
  markMailSent,
  OUTGOING_MAIL_CHANNEL,
  recordMailFailure,
  takeNextDueMail,
} from '@offers/api/read-models';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DataSource, QueryRunner } from 'typeorm';
import { DevMailCatcher } from './dev-mail-catcher.js';

const POLL_INTERVAL_MS = 1000;
const IDLE_POLL_INTERVAL_MS = 10_000;
/** A mail the SMTP server keeps refusing is retried with doubling delays, then left as failed. */
const MAX_ATTEMPTS = 8;
const FIRST_RETRY_SECONDS = 30;

/**
 * Sends the recorded mails over SMTP. Each mail is sent inside a transaction that holds its row
 * (`FOR UPDATE SKIP LOCKED`) and marks it sent before committing: a sender that dies before the
 * commit releases the row, and another sender (or the restarted one) sends it again. A mail is
 * therefore delivered at least once; a second copy needs a crash between the SMTP server's
 * acceptance and the commit (docs/decisions.md). Every mail carries a Message-ID derived from its
 * row, so a receiving server can tell such a copy.
 */
@Injectable()
export class MailSender implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('MailSender');
  private transport?: Transporter;
  private catcher?: DevMailCatcher;
  private listener?: ChangeListener;
  private running = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();

  constructor(
    private readonly environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let smtpUrl = this.environment.SMTP_URL;
    if (!smtpUrl) {
      // Production never gets here: the settings refuse to start without SMTP_URL.
      this.catcher = new DevMailCatcher(this.dataSource);
      smtpUrl = await this.catcher.start();
      this.logger.log(`No SMTP_URL: mails are kept in the development mailbox (${smtpUrl})`);
    }
    const url = new URL(smtpUrl);
    url.searchParams.set('pool', 'true');
    url.searchParams.set('maxConnections', String(this.environment.MAIL_CONCURRENCY));
    // A mail is sent inside the transaction that holds its row, so the SMTP exchange must end well
    // before PostgreSQL ends an idle transaction (nodemailer's own socket timeout is 10 minutes).
    const smtpLimitMs = Math.floor(this.environment.WORKERS_IDLE_IN_TRANSACTION_TIMEOUT_MS / 4);
    for (const setting of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
      if (!url.searchParams.has(setting)) url.searchParams.set(setting, String(smtpLimitMs));
    }
    this.transport = nodemailer.createTransport(url.toString());
    // Pool connection errors also fail the send that used them, which records the failure.
    this.transport.on('error', (error) => this.logger.warn(`SMTP connection: ${error.message}`));
    this.running = true;
    // Committed mails wake the senders at once; the poll covers any gap while it reconnects.
    this.listener = new ChangeListener(
      this.environment.DATABASE_DIRECT_URL,
      [OUTGOING_MAIL_CHANNEL],
      () => this.wakeAll(),
      this.logger,
      'sending by polling until notifications return',
    );
    this.listener.start();
    this.loops = Array.from({ length: this.environment.MAIL_CONCURRENCY }, (_, index) =>
      // One sender polls each second; the others wait for a notification or for it to find work.
      this.run(index === 0 ? POLL_INTERVAL_MS : IDLE_POLL_INTERVAL_MS),
    );
  }

  /** Takes no new mail; those being sent finish (their transactions commit) while the database is open. */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wakeAll();
    await Promise.all(this.loops);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.stop();
    this.transport?.close();
    await this.catcher?.stop();
  }

  private async run(pollIntervalMs: number): Promise<void> {
    while (this.running) {
      let sent = false;
      try {
        sent = await this.sendNext();
      } catch (error) {
        this.logger.warn(`Mail sending paused: ${(error as Error).message}`);
      }
      if (sent) this.wakeAll();
      else await this.sleep(pollIntervalMs);
    }
  }

  private wakeAll(): void {
    for (const wake of this.sleepers) wake();
  }

  /** Sends one due mail; false when none is due. */
  private async sendNext(): Promise<boolean> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const mail = await takeNextDueMail(runner);
      if (!mail) {
        await runner.commitTransaction();
        return false;
      }
      let sent = false;
      let givenUp = false;
      try {
        await this.transport!.sendMail({
          from: this.environment.MAIL_FROM,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
          headers: mail.headers,
          messageId: `<mail-${mail.id}@${new URL(this.environment.API_URL).hostname}>`,
        });
        await markMailSent(runner, mail.id);
        if (mail.campaign_id) await countCampaignMail(runner, mail.campaign_id, 'sent_count');
        sent = true;
      } catch (error) {
        givenUp = await this.recordFailure(runner, mail, error as Error);
      }
      await runner.commitTransaction();
      if (sent) this.metrics.mailsSent.inc();
      else this.metrics.mailsFailed.inc({ given_up: String(givenUp) });
      return true;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** Records a refused or failed send; answers whether it was the last attempt. */
  private async recordFailure(runner: QueryRunner, mail: MailToSend, error: Error): Promise<boolean> {
    const attempts = mail.attempts + 1;
    const final = attempts >= MAX_ATTEMPTS;
    this.logger.warn(
      `Mail ${mail.id} not sent (attempt ${attempts}${final ? ', giving up' : ''}): ${error.message}`,
    );
    await recordMailFailure(runner, {
      mailId: mail.id,
      attempts,
      error: error.message.slice(0, 1000),
      final,
      retryInSeconds: FIRST_RETRY_SECONDS * 2 ** (attempts - 1),
    });
    if (final && mail.campaign_id) await countCampaignMail(runner, mail.campaign_id, 'skipped_count');
    return final;
  }

  private sleep(ms: number): Promise<void> {
    // Stopping wakes the sleepers once; a sender that comes back from a send after that must not
    // start a new wait, or shutting down would wait for it.
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}
