import type { EntityManager } from 'typeorm';
import type { TrackingSettings } from '../rules/clicks.js';

/**
 * Saves the merchant's tracking settings on its account, in the caller's transaction (the clicks
 * feature's command records the change); answers them as saved, undefined for no such merchant.
 */
export async function saveTrackingSettings(
  manager: Pick<EntityManager, 'query'>,
  merchantId: number,
  settings: TrackingSettings,
): Promise<TrackingSettings | undefined> {
  // A SELECT around the UPDATE: TypeORM answers a bare UPDATE ... RETURNING with its count beside the rows.
  const [saved]: TrackingSettings[] = await manager.query(
    `WITH changed AS (
       UPDATE merchants SET sub_id_param = $2, cookie_window_days = $3, updated_at = now() WHERE id = $1
       RETURNING sub_id_param AS "subIdParam", cookie_window_days AS "cookieWindowDays")
     SELECT * FROM changed`,
    [merchantId, settings.subIdParam, settings.cookieWindowDays],
  );
  return saved;
}

/**
 * Gives the merchant `fresh` as its postback secret when it has none yet, or always when `rotate`;
 * answers the secret it now has, undefined for no such merchant. The earnings feature's command
 * makes the secret and records its rotation.
 */
export async function issuePostbackSecret(
  manager: Pick<EntityManager, 'query'>,
  merchantId: number,
  fresh: string,
  rotate: boolean,
): Promise<string | undefined> {
  const [merchant]: Array<{ secret: string }> = await manager.query(
    `WITH issued AS (
       UPDATE merchants SET postback_secret = CASE WHEN $3 THEN $2 ELSE coalesce(postback_secret, $2) END
       WHERE id = $1 RETURNING postback_secret AS secret)
     SELECT * FROM issued`,
    [merchantId, fresh, rotate],
  );
  return merchant?.secret;
}
