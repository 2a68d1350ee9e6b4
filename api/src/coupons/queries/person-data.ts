import { type DescribePerson, fact, isoDate, roleOf } from '../../privacy/person-data.js';

/** The person's votes on coupons ("worked" or not), one per coupon and day. */
export const describeCouponVotes: DescribePerson = async (reader, person) => {
  const votes: Array<{ couponId: number; day: string; worked: boolean; votedAt: Date }> = await reader.query(
    `SELECT coupon_id AS "couponId", to_char(day, 'YYYY-MM-DD') AS day, worked, voted_at AS "votedAt"
     FROM coupon_votes WHERE visitor = $1 ORDER BY voted_at, coupon_id`,
    [`${roleOf(person)}:${person.id}`],
  );
  const worked = votes.filter((vote) => vote.worked).length;
  return [
    {
      section: 'votes',
      count: votes.length,
      facts: [fact('worked', worked, 'number'), fact('didNotWork', votes.length - worked, 'number')],
      sharedWith: [],
      records: votes.map((vote) => ({ ...vote, votedAt: isoDate(vote.votedAt) })),
    },
  ];
};
