import type { EntityManager } from 'typeorm';
import type { TrackingSettings } from '../../rules/clicks.js';

type Reader = Pick<EntityManager, 'query'>;

/**
 * How a merchant's purchases are tracked, kept on its account: the sub-id parameter its click-outs
 * carry, its cookie window and the secret its postbacks are signed with. The clicks and earnings
 * features read them here.
 */
export interface MerchantTracking extends TrackingSettings {
  postbackSecret: string | null;
}

/** SQL of the tracking columns of `merchants` under `alias`, named as `MerchantTracking` names them. */
export const MERCHANT_TRACKING_COLUMNS = (alias: string) =>
  `${alias}.sub_id_param AS "subIdParam", ${alias}.cookie_window_days AS "cookieWindowDays",
   ${alias}.postback_secret AS "postbackSecret"`;

/** The merchants' tracking, by id, in one statement (merchants that do not exist are left out). */
export async function merchantTracking(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, MerchantTracking>> {
  if (merchantIds.length === 0) return new Map();
  const rows: Array<MerchantTracking & { id: number }> = await reader.query(
    `SELECT m.id, ${MERCHANT_TRACKING_COLUMNS('m')} FROM merchants m WHERE m.id = ANY($1::int[])`,
    [merchantIds],
  );
  return new Map(rows.map(({ id, ...tracking }) => [id, tracking]));
}
