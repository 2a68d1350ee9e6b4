import {
  type DataReader,
  type DescribePerson,
  fact,
  isoDate,
  type PersonToDescribe,
  roleOf,
} from '../../privacy/person-data.js';
import type { PersonDataExportSection } from '../../privacy/queries/answers.js';

/**
 * The account's own fields (never its password hash, confirmation state or postback secret), its
 * open sessions (when and from which browser, never their tokens) and its referral code with how
 * many accounts joined by it (a count: who they are is theirs).
 */
export const describeIdentity: DescribePerson = async (reader, person) => [
  await accountSection(reader, person),
  await sessionsSection(reader, person),
  await referralsSection(reader, person),
];

const MAIL_PROVIDER = { recipient: 'mailProvider' as const, name: null, what: 'email' };

async function accountSection(
  reader: DataReader,
  person: PersonToDescribe,
): Promise<PersonDataExportSection> {
  if (person.kind === 'shopper') {
    const [user] = await reader.query(
      `SELECT user_name AS "userName", email, mobile_number AS "mobileNumber", address, language,
              referred_by AS "referredBy", created_at AS "registeredAt", updated_at AS "updatedAt"
       FROM users WHERE id = $1`,
      [person.id],
    );
    const record = { ...user, registeredAt: isoDate(user.registeredAt), updatedAt: isoDate(user.updatedAt) };
    return {
      section: 'account',
      count: 1,
      facts: [
        fact('name', user.userName),
        fact('email', user.email),
        fact('mobile', user.mobileNumber),
        fact('address', user.address),
        fact('language', user.language, 'language'),
        fact('registeredAt', record.registeredAt, 'date'),
      ],
      sharedWith: [MAIL_PROVIDER],
      correctAt: 'profile',
      records: [record],
    };
  }
  const [merchant] = await reader.query(
    `SELECT merchant_name AS "merchantName", brand_name AS "brandName", industry, category, address,
            email, mobile, merchant_url AS "merchantUrl", user_name AS "userName", language,
            referred_by_code AS "referredByCode", registered_on AS "registeredAt", updated_at AS "updatedAt"
     FROM merchants WHERE id = $1`,
    [person.id],
  );
  const record = {
    ...merchant,
    registeredAt: isoDate(merchant.registeredAt),
    updatedAt: isoDate(merchant.updatedAt),
  };
  return {
    section: 'account',
    count: 1,
    facts: [
      fact('name', merchant.merchantName),
      fact('brandName', merchant.brandName),
      fact('userName', merchant.userName),
      fact('email', merchant.email),
      fact('mobile', merchant.mobile),
      fact('address', merchant.address),
      fact('siteUrl', merchant.merchantUrl),
      fact('language', merchant.language, 'language'),
      fact('registeredAt', record.registeredAt, 'date'),
    ],
    sharedWith: [MAIL_PROVIDER],
    correctAt: 'profile',
    records: [record],
  };
}

async function sessionsSection(
  reader: DataReader,
  person: PersonToDescribe,
): Promise<PersonDataExportSection> {
  const sessions: Array<Record<string, Date | string | null>> = await reader.query(
    `SELECT created_at AS "startedAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt",
            user_agent AS "userAgent"
     FROM sessions WHERE role = $1 AND account_id = $2 AND expires_at > now()
     ORDER BY last_used_at DESC, id`,
    [roleOf(person), person.id],
  );
  const records = sessions.map((session) => ({
    startedAt: isoDate(session.startedAt),
    lastUsedAt: isoDate(session.lastUsedAt),
    expiresAt: isoDate(session.expiresAt),
    userAgent: session.userAgent,
  }));
  return {
    section: 'sessions',
    count: records.length,
    facts: [fact('lastUsedAt', records[0]?.lastUsedAt ?? null, 'date')],
    sharedWith: [],
    records,
  };
}

async function referralsSection(
  reader: DataReader,
  person: PersonToDescribe,
): Promise<PersonDataExportSection> {
  const role = roleOf(person);
  const [code] = await reader.query(
    'SELECT code FROM referral_codes WHERE owner_type = $1 AND owner_id = $2',
    [role, person.id],
  );
  const referralCode: string | null = code?.code ?? null;
  const [{ joined }] = referralCode
    ? await reader.query(
        `SELECT (SELECT count(*) FROM users WHERE referred_by = $1)::int
              + (SELECT count(*) FROM merchants WHERE referred_by_code = $1)::int AS joined`,
        [referralCode],
      )
    : [{ joined: 0 }];
  const records = referralCode ? [{ referralCode, accountsJoined: joined }] : [];
  return {
    section: 'referrals',
    count: records.length,
    facts: [fact('referralCode', referralCode), fact('joined', joined, 'number')],
    sharedWith: [],
    records,
  };
}

/** The account as "Your data" asks about it: its id, and the address and number rows are keyed by. */
export async function personToDescribe(
  reader: DataReader,
  kind: 'shopper' | 'merchant',
  id: number,
): Promise<PersonToDescribe | undefined> {
  const [row] =
    kind === 'shopper'
      ? await reader.query('SELECT email, mobile_number AS mobile FROM users WHERE id = $1', [id])
      : await reader.query('SELECT email, mobile FROM merchants WHERE id = $1', [id]);
  return row && { kind, id, email: row.email ?? '', mobile: row.mobile };
}
