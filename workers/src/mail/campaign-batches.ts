import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CampaignSendStarted, type PublishedEvent } from '@offers/api/events';
import { Environment, QueueName, QueueRegistry } from '@offers/api/platform';
import {
  accountAddressesWithout,
  campaignContent,
  countCampaignMail,
  liveFeaturedCoupons,
  markRecipientsQueued,
  newsletterUnsubscribeToken,
  type OutgoingMail,
  recordOutgoingMails,
  takeUnqueuedRecipients,
  unqueuedRecipientBatches,
} from '@offers/api/read-models';
import type { CouponTextLanguage } from '@offers/api/rules';
import type { Job } from 'bullmq';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { QueueWorkerHost } from '../shutdown/queue-worker-host.js';
import { newsletterHeaders, newsletterUnsubscribeUrl } from './mail-consumer.js';
import { renderMail } from './templates.js';

/** Subscribers per batch job: one transaction records their mails. */
export const CAMPAIGN_BATCH_SIZE = 100;

export interface CampaignBatch {
  campaignId: number;
  fromSubscriberId: number;
  toSubscriberId: number;
}

/**
 * When a campaign starts (or is resumed), splits its recipients not yet queued into batches and
 * adds one BullMQ job per batch. Job ids name the batch, so a redelivered event adds nothing new.
 */
@Injectable()
export class CampaignFanOut implements EventConsumer {
  readonly name = 'campaign-fan-out';
  readonly handles = [CampaignSendStarted.type];

  constructor(private readonly queues: QueueRegistry) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const campaignId = Number(event.aggregateId);
    const batches = await unqueuedRecipientBatches(manager, campaignId, CAMPAIGN_BATCH_SIZE);
    if (batches.length === 0) return;
    // Added before the inbox commits: if the commit fails, the retry adds the same job ids again.
    await this.queues.get(QueueName.NewsletterCampaigns).addBulk(
      batches.map(({ from, to }) => ({
        name: 'campaign-batch',
        data: { campaignId, fromSubscriberId: from, toSubscriberId: to } satisfies CampaignBatch,
        opts: {
          jobId: `campaign-${campaignId}-${from}-${to}`,
          attempts: 10,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: { age: 30 * 24 * 3600 },
        },
      })),
    );
  }
}

/**
 * Records the mails of one batch of a campaign: each recipient not yet queued gets one
 * `outgoing_mails` row (keyed by campaign and subscriber), or is counted as skipped when it
 * unsubscribed since the campaign started. The mail senders deliver the rows.
 */
@Injectable()
export class CampaignBatchesWorker extends QueueWorkerHost<CampaignBatch> {
  constructor(
    environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
    inFlight: InFlightJobs,
  ) {
    super(environment, inFlight, {
      queue: QueueName.NewsletterCampaigns,
      // A batch takes well under a second: the shared lock options notice a dead worker within seconds.
      concurrency: 2,
      logContext: 'CampaignBatches',
      workerName: 'campaign worker',
    });
  }

  async process(job: Job<CampaignBatch>): Promise<void> {
    await this.dataSource.transaction((manager) => this.queueBatch(manager, job.data));
  }

  private async queueBatch(manager: EntityManager, batch: CampaignBatch): Promise<void> {
    const { PUBLIC_URL, SESSION_SECRET } = this.environment;
    const campaign = await campaignContent(manager, batch.campaignId);
    if (!campaign) return;
    const recipients = await takeUnqueuedRecipients(
      manager,
      batch.campaignId,
      batch.fromSubscriberId,
      batch.toSubscriberId,
    );
    if (recipients.length === 0) return;
    // Only coupons still on offer are featured: one that ended since the campaign was written is left out.
    // Each subscriber reads their titles in their language where the coupon has one.
    const coupons = await liveFeaturedCoupons(manager, campaign.couponIds);
    const confirmed = recipients.filter((recipient) => recipient.status === 'confirmed');
    // The offers a campaign features go to an account's address only with its offers-by-mail
    // consent; without it the account gets the newsletter's text alone (docs/decisions.md § Privacy).
    const withoutOffers =
      coupons.length === 0
        ? new Set<string>()
        : await accountAddressesWithout(
            manager,
            confirmed.map((subscriber) => subscriber.email),
            'offers_by_mail',
          );
    const mails = confirmed.map((subscriber): OutgoingMail => {
      const token = newsletterUnsubscribeToken(SESSION_SECRET, subscriber.id, subscriber.email);
      return {
        idempotencyKey: `campaign-${campaign.id}:${subscriber.id}`,
        template: 'campaign',
        recipient: subscriber.email,
        language: subscriber.language,
        // No parameters: the campaign's row keeps its subject, body and coupons.
        campaignId: campaign.id,
        headers: newsletterHeaders(PUBLIC_URL, token, subscriber.language),
        content: renderMail('campaign', subscriber.language, {
          subject: campaign.subject,
          body: campaign.body,
          coupons: (withoutOffers.has(subscriber.email.toLowerCase()) ? [] : coupons).map((coupon) => ({
            label: coupon.texts[subscriber.language as CouponTextLanguage]?.title ?? coupon.title,
            url: `${PUBLIC_URL}/coupons/${coupon.id}`,
          })),
          unsubscribeUrl: newsletterUnsubscribeUrl(PUBLIC_URL, token, subscriber.language),
        }),
      };
    });
    await recordOutgoingMails(manager, mails);
    const skipped = recipients.length - confirmed.length;
    await markRecipientsQueued(
      manager,
      campaign.id,
      recipients.map((recipient) => recipient.id),
      confirmed.map((subscriber) => subscriber.id),
    );
    if (skipped > 0) await countCampaignMail(manager, campaign.id, 'skipped_count', skipped);
  }
}
