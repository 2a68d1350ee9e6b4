import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Networks' postbacks. A feed source keeps how its network names a postback's fields
 * (`postback_mapping`: `{fields: {clickId, orderId, orderAmount, commission, status, currency},
 * statuses: {pending, approved, declined}}`), set here for existing sources from their format's
 * preset as the rules had it when this was written.
 *
 * A network's purchase is an earning with the source it came through (`network_source_id`) and
 * the network's commission (`network_commission_paise`), once per (source, the network's order
 * id): the merchants' own references stay unique per merchant among the purchases they report,
 * and two networks (or a network and the store itself) may use the same order number.
 */
export class NetworkPostbacks1764940000000 implements MigrationInterface {
  name = 'NetworkPostbacks1764940000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE feed_sources ADD COLUMN postback_mapping jsonb');
    const presets: Record<string, unknown> = {
      'admitad-json': {
        fields: {
          clickId: 'subid',
          orderId: 'order_id',
          orderAmount: 'order_sum',
          commission: 'payment_sum',
          status: 'status',
          currency: 'currency',
        },
        statuses: {
          pending: ['pending', 'new'],
          approved: ['approved', 'approved_but_stalled', 'accepted'],
          declined: ['declined', 'rejected'],
        },
      },
      'cuelinks-json': {
        fields: {
          clickId: 'subid',
          orderId: 'transaction_id',
          orderAmount: 'sale_amount',
          commission: 'commission',
          status: 'status',
          currency: null,
        },
        statuses: {
          pending: ['pending'],
          approved: ['validated', 'payable', 'paid'],
          declined: ['rejected'],
        },
      },
    };
    const generic = {
      fields: {
        clickId: 'subid',
        orderId: 'order_id',
        orderAmount: 'sale_amount',
        commission: 'commission',
        status: 'status',
        currency: 'currency',
      },
      statuses: {
        pending: ['pending'],
        approved: ['approved', 'confirmed'],
        declined: ['declined', 'rejected', 'cancelled'],
      },
    };
    await queryRunner.query(
      `UPDATE feed_sources SET postback_mapping = coalesce(($1::jsonb)->format, $2::jsonb)`,
      [JSON.stringify(presets), JSON.stringify(generic)],
    );
    await queryRunner.query(`
      ALTER TABLE feed_sources
        ALTER COLUMN postback_mapping SET NOT NULL,
        ADD CONSTRAINT feed_sources_postback_mapping CHECK (jsonb_typeof(postback_mapping->'fields') = 'object'
          AND jsonb_typeof(postback_mapping->'statuses') = 'object')`);

    await queryRunner.query(`
      ALTER TABLE earnings
        ADD COLUMN network_source_id integer REFERENCES feed_sources (id),
        ADD COLUMN network_commission_paise bigint CHECK (network_commission_paise >= 0)`);
    await queryRunner.query('DROP INDEX earnings_purchase_key');
    await queryRunner.query(`
      CREATE UNIQUE INDEX earnings_purchase_key ON earnings (merchant_id, purchase_reference)
      WHERE kind = 'cashback' AND network_source_id IS NULL`);
    await queryRunner.query(`
      CREATE UNIQUE INDEX earnings_network_purchase_key ON earnings (network_source_id, purchase_reference)
      WHERE kind = 'cashback' AND network_source_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX earnings_network_purchase_key');
    await queryRunner.query('DROP INDEX earnings_purchase_key');
    await queryRunner.query(
      'ALTER TABLE earnings DROP COLUMN network_source_id, DROP COLUMN network_commission_paise',
    );
    await queryRunner.query(
      "CREATE UNIQUE INDEX earnings_purchase_key ON earnings (merchant_id, purchase_reference) WHERE kind = 'cashback'",
    );
    await queryRunner.query('ALTER TABLE feed_sources DROP COLUMN postback_mapping');
  }
}
