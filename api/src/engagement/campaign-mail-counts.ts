import type { EntityManager } from 'typeorm';

type Writer = Pick<EntityManager, 'query'>;

/**
 * Counts a campaign's mails as sent (or given up, or skipped for an unsubscribed recipient) and
 * ends the campaign with its last mail: the senders and the campaign batches call it in the
 * transaction that settles the mail.
 */
export async function countCampaignMail(
  writer: Writer,
  campaignId: number,
  column: 'sent_count' | 'skipped_count',
  count = 1,
): Promise<void> {
  await writer.query(
    `UPDATE campaigns SET ${column} = ${column} + $2,
       status = CASE WHEN sent_count + skipped_count + $2 >= recipients_total THEN 'sent' ELSE status END,
       sent_at = CASE WHEN sent_count + skipped_count + $2 >= recipients_total THEN now() ELSE sent_at END
     WHERE id = $1`,
    [campaignId, count],
  );
}

/**
 * The recipients' mails are recorded (or skipped: those not among `mailedIds` unsubscribed since
 * the campaign started), in the transaction that recorded them.
 */
export async function markRecipientsQueued(
  writer: Writer,
  campaignId: number,
  recipientIds: readonly number[],
  mailedIds: readonly number[],
): Promise<void> {
  await writer.query(
    `UPDATE campaign_recipients SET queued_at = now(), skipped = NOT (subscriber_id = ANY($3))
     WHERE campaign_id = $1 AND subscriber_id = ANY($2)`,
    [campaignId, recipientIds, mailedIds],
  );
}
