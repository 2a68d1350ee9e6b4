import { feedNetworksOfCoupons } from '../../feeds/queries/feed-coupons.js';
import { type DescribePerson, fact, isoDate, storeNames } from '../../privacy/person-data.js';
import type { DataSharedWith } from '../../privacy/queries/answers.js';

/**
 * The shopper's click-outs: when, to which coupon and store, and the click id each carried. That id
 * went to whoever tracks the purchase: the affiliate network of a feed's coupon, else the store
 * itself (its own link with the id in its sub-id parameter). The client address is kept only as a
 * keyed digest for the click window, which names nothing readable: it is left out.
 */
export const describeClicks: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const clicks: Array<{ clickId: string; couponId: number; merchantId: number; clickedAt: Date }> =
    await reader.query(
      `SELECT id AS "clickId", coupon_id AS "couponId", merchant_id AS "merchantId", clicked_at AS "clickedAt"
       FROM clicks WHERE user_id = $1 ORDER BY clicked_at, id`,
      [person.id],
    );
  const networks = await feedNetworksOfCoupons(
    reader,
    clicks.map((click) => click.couponId),
  );
  const names = await storeNames(
    reader,
    clicks.map((click) => click.merchantId),
  );
  const records = clicks.map((click) => {
    const network = networks.get(click.couponId);
    return {
      clickId: click.clickId,
      couponId: click.couponId,
      merchantId: click.merchantId,
      storeName: names.get(click.merchantId) ?? null,
      clickedAt: isoDate(click.clickedAt),
      clickIdSentTo: network
        ? { recipient: 'affiliateNetwork', name: network }
        : { recipient: 'store', name: names.get(click.merchantId) ?? null },
    };
  });
  const sharedWith = new Map<string, DataSharedWith>();
  for (const { clickIdSentTo } of records) {
    const key = `${clickIdSentTo.recipient}:${clickIdSentTo.name}`;
    if (!sharedWith.has(key))
      sharedWith.set(key, {
        recipient: clickIdSentTo.recipient as DataSharedWith['recipient'],
        name: clickIdSentTo.name,
        what: 'clickIds',
      });
  }
  return [
    {
      section: 'clicks',
      count: records.length,
      facts: [
        fact('firstAt', records[0]?.clickedAt, 'date'),
        fact('lastAt', records.at(-1)?.clickedAt, 'date'),
        fact(
          'stores',
          [...new Set(records.map((record) => record.storeName ?? `#${record.merchantId}`))].join(', '),
        ),
      ],
      sharedWith: [...sharedWith.values()],
      records,
    },
  ];
};
