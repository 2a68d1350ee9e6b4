import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { CAMPAIGN_FORM } from '../../rules/engagement.js';
import type { CampaignChangesDto } from '../dto/engagement.dto.js';
import { CampaignDeleted, CampaignSaved, CampaignSendStarted } from '../events/engagement-events.js';

async function lockedCampaign(manager: EntityManager, id: number): Promise<{ id: number; status: string }> {
  const [campaign] = await manager.query('SELECT id, status FROM campaigns WHERE id = $1 FOR UPDATE', [id]);
  if (!campaign) throw new NotFoundException({ statusCode: 404, message: 'Campaign not found.' });
  return campaign;
}

export class SaveCampaign extends Command<{ id: number }> {
  constructor(
    /** Undefined for a new campaign. */
    readonly id: number | undefined,
    readonly changes: CampaignChangesDto,
  ) {
    super();
  }
}

/** Creates or edits a draft; a campaign that started sending is what its recipients got. */
@CommandHandler(SaveCampaign)
export class SaveCampaignHandler implements ICommandHandler<SaveCampaign> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, changes }: SaveCampaign) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      let saved: { id: number; subject: string };
      if (id === undefined) {
        [saved] = await manager.query(
          'INSERT INTO campaigns (subject, body, featured_coupon_ids) VALUES ($1, $2, $3) RETURNING id, subject',
          [changes.subject, changes.body, changes.featuredCouponIds ?? []],
        );
      } else {
        const campaign = await lockedCampaign(manager, id);
        if (campaign.status !== 'draft')
          throw new ConflictException({ statusCode: 409, message: CAMPAIGN_FORM.notDraft });
        [saved] = await manager.query(
          `WITH saved AS (
             UPDATE campaigns SET subject = coalesce($2, subject), body = coalesce($3, body),
               featured_coupon_ids = coalesce($4, featured_coupon_ids), updated_at = now()
             WHERE id = $1 RETURNING id, subject)
           SELECT * FROM saved`,
          [id, changes.subject ?? null, changes.body ?? null, changes.featuredCouponIds ?? null],
        );
      }
      record(new CampaignSaved(String(saved.id), { subject: saved.subject }));
      return { id: saved.id };
    });
  }
}

export class DeleteCampaign extends Command<void> {
  constructor(readonly id: number) {
    super();
  }
}

@CommandHandler(DeleteCampaign)
export class DeleteCampaignHandler implements ICommandHandler<DeleteCampaign> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id }: DeleteCampaign) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const campaign = await lockedCampaign(manager, id);
      if (campaign.status !== 'draft')
        throw new ConflictException({ statusCode: 409, message: CAMPAIGN_FORM.notDraft });
      await manager.query('DELETE FROM campaigns WHERE id = $1', [id]);
      record(new CampaignDeleted(String(id), {}));
    });
  }
}

export class SendCampaign extends Command<void> {
  constructor(readonly id: number) {
    super();
  }
}

/**
 * Fixes the recipients (the subscribers confirmed now) and starts the fan-out. Sending a campaign
 * that is still sending resumes it: the batches of recipients not yet queued are offered again
 * (after Redis lost its jobs, say); nobody is mailed twice. A sent campaign is a 409.
 */
@CommandHandler(SendCampaign)
export class SendCampaignHandler implements ICommandHandler<SendCampaign> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id }: SendCampaign) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const campaign = await lockedCampaign(manager, id);
      if (campaign.status === 'sent')
        throw new ConflictException({ statusCode: 409, message: CAMPAIGN_FORM.alreadySent });
      if (campaign.status === 'draft') {
        const [{ total }] = await manager.query(
          `WITH recipients AS (
             INSERT INTO campaign_recipients (campaign_id, subscriber_id)
             SELECT $1, id FROM newsletter_subscribers WHERE status = 'confirmed' RETURNING 1)
           SELECT count(*)::int AS total FROM recipients`,
          [id],
        );
        await manager.query(
          `UPDATE campaigns SET recipients_total = $2, send_started_at = now(), updated_at = now(),
             status = CASE WHEN $2 = 0 THEN 'sent' ELSE 'sending' END,
             sent_at = CASE WHEN $2 = 0 THEN now() END
           WHERE id = $1`,
          [id, total],
        );
        record(new CampaignSendStarted(String(id), { campaignId: id, recipients: total }));
        return;
      }
      const [{ total }] = await manager.query(
        `WITH touched AS (UPDATE campaigns SET updated_at = now() WHERE id = $1 RETURNING recipients_total AS total)
         SELECT * FROM touched`,
        [id],
      );
      record(new CampaignSendStarted(String(id), { campaignId: id, recipients: total }));
    });
  }
}

/** How long a sending campaign's unqueued recipients wait before their batches are offered again. */
export const CAMPAIGN_STALL_MS = 2 * 60_000;

/**
 * Resumes campaigns that are sending but have recipients no batch has queued for a while (their
 * jobs were lost with Redis, say), as an admin's second "send" would. Returns how many.
 */
export function resumeStalledCampaigns(unitOfWork: UnitOfWork): Promise<number> {
  return unitOfWork.run(async ({ manager, record }) => {
    const stalled: Array<{ id: number; total: number }> = await manager.query(
      `SELECT id, recipients_total AS total FROM campaigns c
       WHERE status = 'sending' AND updated_at < now() - make_interval(secs => $1)
         AND EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.campaign_id = c.id AND r.queued_at IS NULL)
       FOR UPDATE SKIP LOCKED`,
      [CAMPAIGN_STALL_MS / 1000],
    );
    for (const campaign of stalled) {
      await manager.query('UPDATE campaigns SET updated_at = now() WHERE id = $1', [campaign.id]);
      record(
        new CampaignSendStarted(String(campaign.id), { campaignId: campaign.id, recipients: campaign.total }),
      );
    }
    return stalled.length;
  });
}
