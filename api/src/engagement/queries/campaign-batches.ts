import type { EntityManager } from 'typeorm';
import type { Language } from '../../rules/engagement.js';

type Reader = Pick<EntityManager, 'query'>;

/**
 * The campaign's recipients not yet queued, split into batches of `size` by subscriber id: each
 * batch's first and last subscriber.
 */
export function unqueuedRecipientBatches(
  reader: Reader,
  campaignId: number,
  size: number,
): Promise<Array<{ from: number; to: number }>> {
  return reader.query(
    `SELECT min(subscriber_id) AS "from", max(subscriber_id) AS "to"
     FROM (SELECT subscriber_id, (row_number() OVER (ORDER BY subscriber_id) - 1) / $2 AS batch
           FROM campaign_recipients WHERE campaign_id = $1 AND queued_at IS NULL) numbered
     GROUP BY batch ORDER BY 1`,
    [campaignId, size],
  );
}

/** What a campaign's mail says. */
export interface CampaignContent {
  id: number;
  subject: string;
  body: string;
  couponIds: number[];
}

export async function campaignContent(reader: Reader, id: number): Promise<CampaignContent | undefined> {
  const [campaign]: CampaignContent[] = await reader.query(
    'SELECT id, subject, body, featured_coupon_ids AS "couponIds" FROM campaigns WHERE id = $1',
    [id],
  );
  return campaign;
}

/** A recipient of a campaign batch, as subscribed now. */
export interface BatchRecipient {
  id: number;
  email: string;
  language: Language;
  status: string;
}

/**
 * The batch's recipients not yet queued, locked until the caller's transaction ends (another run
 * of the same batch skips them).
 */
export function takeUnqueuedRecipients(
  manager: Reader,
  campaignId: number,
  fromSubscriberId: number,
  toSubscriberId: number,
): Promise<BatchRecipient[]> {
  return manager.query(
    `SELECT s.id, s.email, s.language, s.status FROM campaign_recipients r
     JOIN newsletter_subscribers s ON s.id = r.subscriber_id
     WHERE r.campaign_id = $1 AND r.subscriber_id BETWEEN $2 AND $3 AND r.queued_at IS NULL
     ORDER BY s.id FOR UPDATE OF r SKIP LOCKED`,
    [campaignId, fromSubscriberId, toSubscriberId],
  );
}
