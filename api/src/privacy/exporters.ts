import type { DataSource } from 'typeorm';
import { describeClaims } from '../claims/queries/person-data.js';
import { describeClicks } from '../clicks/queries/person-data.js';
import { describeCouponVotes } from '../coupons/queries/person-data.js';
import { describeEarnings } from '../earnings/queries/person-data.js';
import { describeEngagement } from '../engagement/queries/person-data.js';
import { describeFollows } from '../follows/queries/person-data.js';
import { describeIdentity } from '../identity/queries/person-data.js';
import { describeMail } from '../mail/queries/person-data.js';
import { describePayouts } from '../payouts/queries/person-data.js';
import { PERSON_DATA_SECTIONS } from '../rules/privacy.js';
import type { DescribePerson, PersonToDescribe } from './person-data.js';
import type { PersonDataExport, PersonDataSummary } from './queries/answers.js';
import { describeConsents } from './queries/consents.js';
import { describePrivacyRequests } from './queries/grievances.js';

/**
 * Every owner of personal data, asked in turn to describe what it holds of the person: "Your data"
 * and its download are composed of their answers, never of SQL here. An owner that starts holding
 * personal data adds its line, as it adds its forget function to PERSON_FORGETTERS.
 */
export const PERSON_EXPORTERS: ReadonlyArray<{ owner: string; describe: DescribePerson }> = [
  { owner: 'identity', describe: describeIdentity },
  { owner: 'privacy', describe: describeConsents },
  { owner: 'follows', describe: describeFollows },
  { owner: 'coupons', describe: describeCouponVotes },
  { owner: 'clicks', describe: describeClicks },
  { owner: 'earnings', describe: describeEarnings },
  { owner: 'payouts', describe: describePayouts },
  { owner: 'claims', describe: describeClaims },
  { owner: 'engagement', describe: describeEngagement },
  { owner: 'mail', describe: describeMail },
  { owner: 'privacy', describe: describePrivacyRequests },
];

/**
 * Everything held of the person, read in one repeatable-read snapshot so that the sections agree
 * with each other (an earning and the click it names), in the order PERSON_DATA_SECTIONS lists.
 */
export async function exportPersonData(
  dataSource: DataSource,
  person: PersonToDescribe,
): Promise<PersonDataExport> {
  const sections = await dataSource.transaction('REPEATABLE READ', async (manager) => {
    const described = [];
    for (const { describe } of PERSON_EXPORTERS) described.push(...(await describe(manager, person)));
    return described;
  });
  sections.sort((a, b) => PERSON_DATA_SECTIONS.indexOf(a.section) - PERSON_DATA_SECTIONS.indexOf(b.section));
  return { person: { kind: person.kind, id: person.id }, generatedAt: new Date().toISOString(), sections };
}

/** The summary: each section's count, facts and recipients, without the records. */
export function summaryOf(exported: PersonDataExport): PersonDataSummary {
  return {
    ...exported,
    sections: exported.sections.map(({ records: _records, ...section }) => section),
  };
}
