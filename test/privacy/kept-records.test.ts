import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import { eventually } from '../support/test-environment.js';

/**
 * What an erasure keeps (earnings, payouts, claims, the pseudonymous account row) goes once
 * ERASED_RECORDS_KEEP_YEARS (8 by default) have passed since the erasure, through the scheduled
 * job; a record someone else's kept record needs stays until that one goes.
 */
let market: Marketplace;
let shop: CashbackShop;

beforeAll(async () => {
  market = await startMarketplace('kept records', { roles: ['relay', 'events', 'scheduler'] });
  shop = await cashbackShop(market);
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const query = (sql: string, parameters: unknown[] = []) => market.api.dataSource.query(sql, parameters);

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

/** Runs a scheduled job through the workers' maintenance queue, as its schedule does, to its end. */
async function runScheduled(name: string) {
  const maintenance = market.workers.module.get(QueueRegistry).get(QueueName.Maintenance);
  const job = await maintenance.add(name, {});
  await eventually(async () => (await job.getState()) === 'completed', name, 30_000);
}

/**
 * Erases the shopper as a confirmed deletion whose grace period is over does (the erasure job),
 * then dates the erasure `age` ago (a PostgreSQL interval). Answers the request's id.
 */
async function erasedAgo(shopper: Session, age: string): Promise<string> {
  const [{ id }] = await query(
    `INSERT INTO deletion_requests (person_kind, person_id, state, confirm_token_digest, cancel_token_digest,
                                    confirm_before, confirmed_at, erase_after)
     VALUES ('shopper', $1, 'scheduled', '', '', now(), now(), now() - interval '1 second') RETURNING id::text`,
    [shopper.id],
  );
  await runScheduled(ScheduledJob.EraseDueAccounts.name);
  const [request] = await query('SELECT state FROM deletion_requests WHERE id = $1', [id]);
  expect(request.state).toBe('erased');
  await query(`UPDATE deletion_requests SET erased_at = now() - $2::interval WHERE id = $1`, [id, age]);
  return id;
}

/** What is left under the shopper's id, per table. */
async function keptOf(shopper: Session) {
  const count = async (sql: string) => (await query(sql, [shopper.id]))[0].n as number;
  return {
    users: await count('SELECT count(*)::int AS n FROM users WHERE id = $1'),
    earnings: await count('SELECT count(*)::int AS n FROM earnings WHERE user_id = $1'),
    payouts: await count('SELECT count(*)::int AS n FROM payouts WHERE user_id = $1'),
    claims: await count('SELECT count(*)::int AS n FROM missing_cashback_claims WHERE user_id = $1'),
  };
}

const expiryLog = (shopper: Session) =>
  query(
    `SELECT action, acted_by AS "actedBy", reference, detail FROM data_requests
     WHERE kind = 'deletion' AND action = 'records_expired' AND person_kind = 'shopper' AND person_id = $1
     ORDER BY id`,
    [shopper.id],
  );

/** A shopper with confirmed cashback of ₹400, ₹300 of it paid out. */
async function shopperWithRecords(overrides: Record<string, unknown> = {}) {
  const { session } = await registerAndSignInUser(market.api.baseUrl, overrides);
  await confirmedCashback(market, shop, session, '600');
  const payout = await inject('POST', '/api/me/payouts', session.bearer, {
    amount: '300',
    upiId: 'kept@okaxis',
  });
  expect(payout.statusCode).toBe(201);
  const payoutId = payout.json().id;
  expect((await inject('POST', `/api/admin/payouts/${payoutId}/process`, market.admin)).statusCode).toBe(200);
  const paid = await inject('POST', `/api/admin/payouts/${payoutId}/pay`, market.admin, {
    bankReference: `UTR${session.id}X${Date.now()}`,
  });
  expect(paid.statusCode).toBe(200);
  return session;
}

describe('records kept after an erasure', () => {
  it('go with the account row once the period is over, and stay within it; a second run changes nothing', async () => {
    const old = await shopperWithRecords();
    const recent = await shopperWithRecords();
    const oldRequest = await erasedAgo(old, '8 years 1 day');
    await erasedAgo(recent, '7 years 11 months');
    // What the erasure kept: the earning, the paid payout, the purchase the claims queue approved.
    const kept = { users: 1, earnings: 1, payouts: 1, claims: 1 };
    expect(await keptOf(old)).toEqual(kept);

    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);

    expect(await keptOf(old)).toEqual({ users: 0, earnings: 0, payouts: 0, claims: 0 });
    expect(await keptOf(recent)).toEqual(kept);
    expect(await expiryLog(old)).toEqual([
      {
        action: 'records_expired',
        actedBy: 'system',
        reference: oldRequest,
        detail: {
          removed: { missing_cashback_claims: 1, payouts: 1, earnings: 1, earning_notices: 0, users: 1 },
        },
      },
    ]);
    expect(await expiryLog(recent)).toEqual([]);
    const [marked] = await query('SELECT records_removed_at FROM deletion_requests WHERE id = $1', [
      oldRequest,
    ]);
    expect(marked.records_removed_at).not.toBeNull();
    const [event] = await query(
      "SELECT payload FROM outbox WHERE type = 'KeptRecordsRemoved' AND aggregate_id = $1",
      [oldRequest],
    );
    expect(event.payload).toEqual({ personKind: 'shopper', personId: old.id, complete: true });

    const logRows = (await query('SELECT count(*)::int AS n FROM data_requests'))[0].n;
    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);
    expect(await keptOf(recent)).toEqual(kept);
    expect((await query('SELECT count(*)::int AS n FROM data_requests'))[0].n).toBe(logRows);
  });

  it("keep a purchase and the account a referrer's bonus names until the bonus goes", async () => {
    const referrer = await shopperWithRecords();
    const code = (await inject('GET', '/api/me/referral', referrer.bearer)).json().code;
    const referred = await shopperWithRecords({ referredBy: code });
    await eventually(
      async () =>
        (
          await query("SELECT count(*)::int AS n FROM earnings WHERE kind = 'referral' AND user_id = $1", [
            referrer.id,
          ])
        )[0].n === 1,
      "the referrer's bonus",
    );
    const referredRequest = await erasedAgo(referred, '9 years');

    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);

    // The referrer's account is live: its bonus, and so the purchase and the row it names, stay.
    expect(await keptOf(referred)).toEqual({ users: 1, earnings: 1, payouts: 0, claims: 0 });
    expect((await expiryLog(referred)).map((row: { detail: unknown }) => row.detail)).toEqual([
      {
        removed: { missing_cashback_claims: 1, payouts: 1, earnings: 0, earning_notices: 0, users: 0 },
        keptForOthers: { earnings: 1, account: true },
      },
    ]);
    const [waiting] = await query('SELECT records_removed_at FROM deletion_requests WHERE id = $1', [
      referredRequest,
    ]);
    expect(waiting.records_removed_at).toBeNull();
    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);
    expect(await expiryLog(referred)).toHaveLength(1);

    // Once the referrer is erased and its own period is over, its bonus goes, then the rest.
    await erasedAgo(referrer, '10 years');
    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);
    await runScheduled(ScheduledJob.RemoveExpiredKeptRecords.name);
    expect(await keptOf(referrer)).toEqual({ users: 0, earnings: 0, payouts: 0, claims: 0 });
    expect(await keptOf(referred)).toEqual({ users: 0, earnings: 0, payouts: 0, claims: 0 });
    expect((await expiryLog(referred)).at(-1).detail).toEqual({
      removed: { missing_cashback_claims: 0, payouts: 0, earnings: 1, earning_notices: 0, users: 1 },
    });
  });
});
