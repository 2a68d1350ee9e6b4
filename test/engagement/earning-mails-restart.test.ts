import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { EarningUpdates } from '../../workers/src/mail/earning-updates.js';
import { registerAndSignInUser } from '../support/accounts.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, reportPurchase } from '../support/payouts.js';
import { type RunningProcess, startNode } from '../support/processes.js';
import { eventually } from '../support/test-environment.js';

/**
 * The earnings digest survives its workers: the relay runs here, the consumers and mail senders in
 * a real workers process that is killed while events wait and again while the digest is being
 * sent. Every purchase is told, in one mail, once.
 */
let market: EngagementMarket;
let shop: CashbackShop;
let worker: RunningProcess | undefined;

const startWorkerProcess = () =>
  startNode('workers/dist/src/main.js', { ...market.test.variables, WORKER_ROLES: 'events' });

beforeAll(async () => {
  market = await startEngagementMarket('earning mails restart', {
    roles: ['relay'],
    overrides: { EARNING_MAIL_WAIT_MINUTES: '0' },
  });
  worker = startWorkerProcess();
  shop = await cashbackShop(market, { title: 'Restart sale 10% off' });
}, 60_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await market?.close();
});

async function purchase(referralCode: string, rupees: string) {
  const recorded = await reportPurchase(market, shop, referralCode, rupees);
  expect(recorded.statusCode).toBe(201);
}

const sweep = () =>
  market.api.dataSource.transaction((manager) =>
    market.workers.module.get(EarningUpdates).mailDue(manager, new Date()),
  );

it('workers killed while purchases wait and while their digest is sent: one digest with both', async () => {
  const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
  const digests = () =>
    market.smtp.to(registration.email).filter((mail) => mail.text.includes('/account/earnings'));
  const code = (
    await market.api.http.inject({ method: 'GET', url: '/api/me/referral', headers: session.bearer })
  ).json().code as string;
  await eventually(async () => market.smtp.to(registration.email).length === 1, 'the welcome mail', 30_000);

  // Down while both purchases are reported: their events wait for the next process.
  await worker!.stop('SIGKILL');
  await purchase(code, '640');
  await purchase(code, '360');
  worker = startWorkerProcess();
  await untilEventsProcessed(market, 60_000);

  // The digest is recorded; its sender is killed while the SMTP server holds its answer.
  market.smtp.hold();
  expect(await sweep()).toBe(1);
  await eventually(async () => market.smtp.heldCount > 0, 'the digest to be on its way', 30_000);
  await worker!.stop('SIGKILL');
  await eventually(async () => market.smtp.heldClientsGone(), 'the killed worker to hang up');
  market.smtp.release();
  expect(digests()).toHaveLength(0);

  // The sweep run again owes nothing; the restarted process sends the recorded digest once.
  expect(await sweep()).toBe(0);
  worker = startWorkerProcess();
  await eventually(async () => digests().length === 1, 'the digest', 60_000);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const mails = digests();
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe('2 updates on your cashback');
  expect(mails[0]!.text).toContain('₹640.00');
  expect(mails[0]!.text).toContain('₹360.00');
  expect(await sweep()).toBe(0);
}, 180_000);
