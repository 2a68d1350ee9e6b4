import { type DescribePerson, fact, isoDate, storeNames } from '../../privacy/person-data.js';

/** The stores the shopper follows (hidden ones too: the follow is still held) and since when. */
export const describeFollows: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const follows: Array<{ merchantId: number; followedAt: Date }> = await reader.query(
    `SELECT merchant_id AS "merchantId", followed_at AS "followedAt" FROM store_follows
     WHERE user_id = $1 ORDER BY followed_at, merchant_id`,
    [person.id],
  );
  const names = await storeNames(
    reader,
    follows.map((follow) => follow.merchantId),
  );
  const records = follows.map((follow) => ({
    merchantId: follow.merchantId,
    storeName: names.get(follow.merchantId) ?? null,
    followedAt: isoDate(follow.followedAt),
  }));
  return [
    {
      section: 'follows',
      count: records.length,
      facts: [
        fact('stores', records.map((record) => record.storeName ?? `#${record.merchantId}`).join(', ')),
      ],
      sharedWith: [],
      records,
    },
  ];
};
