/** SQL of the admins' lists and records of contact messages, campaigns, subscribers and received mail. */
import type { DataSource } from 'typeorm';
import { type ListRequest, sqlOrder } from '../../infrastructure/http/react-admin.js';
import type { Language } from '../../rules/engagement.js';

type Reader = Pick<DataSource, 'query'>;
/** A list reads its page and total in one transaction, hence more than `query`. */
type ListReader = Pick<DataSource, 'transaction'>;

/** One page of a list and the total its filter matches. */
export interface RecordsPage<R> {
  rows: R[];
  total: number;
}

/** A list's filter: `q` searches the table's text columns, the other fields match exactly. */
type ListFilter<E extends string> = { q?: string } & { [field in E]?: unknown };

/** What a react-admin list reads from one table, with the columns behind its fields. */
interface Table<S extends string, E extends string> {
  select: string;
  from: string;
  /** Sortable fields; the keys, in this order, are what `sort` may name. */
  sort: Record<S, string>;
  /** Text columns `filter.q` searches. */
  search: string[];
  /** Fields filtered by equality. */
  exact: Record<E, string>;
}

const sortsOf = <S extends string>(table: Table<S, string>) => Object.keys(table.sort) as S[];

async function readPage<S extends string, E extends string, R>(
  dataSource: ListReader,
  table: Table<S, E>,
  page: ListRequest<S>,
  filter: ListFilter<E>,
): Promise<RecordsPage<R>> {
  const where: string[] = [];
  const values: unknown[] = [];
  const q = filter.q?.trim();
  if (q) {
    values.push(`%${q.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(${table.search.map((column) => `${column} ILIKE $${values.length}`).join(' OR ')})`);
  }
  for (const [field, column] of Object.entries<string>(table.exact)) {
    const value = (filter as Record<string, unknown>)[field];
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  // One snapshot for the page and its total, so Content-Range agrees with the rows.
  return dataSource.transaction('REPEATABLE READ', async (manager) => {
    const [counted] = await manager.query(
      `SELECT count(*)::int AS total FROM ${table.from} ${condition}`,
      values,
    );
    const rows: R[] = await manager.query(
      `SELECT ${table.select} FROM ${table.from} ${condition}
       ORDER BY ${sqlOrder(page, table.sort[page.sortField])} LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    );
    return { total: counted.total as number, rows };
  });
}

async function readOne<R>(reader: Reader, table: Table<string, string>, id: number): Promise<R | undefined> {
  const [row]: R[] = await reader.query(`SELECT ${table.select} FROM ${table.from} WHERE id = $1`, [id]);
  return row;
}

// Contact messages --------------------------------------------------------------------------

/** A message sent through the public contact form; `msg` is the name the back-office reads. */
export interface ContactMessageRecord {
  id: number;
  name: string;
  email: string;
  mobile: string | null;
  msg: string;
  handled: boolean;
  handledAt: Date | null;
  receivedAt: Date;
}

const CONTACT_MESSAGES = {
  select: `id, name, email, mobile, message AS msg, handled, handled_at AS "handledAt",
                         received_at AS "receivedAt"`,
  from: 'contact_messages',
  sort: { id: 'id', receivedAt: 'received_at', handled: 'handled', name: 'name', email: 'email' },
  search: ['name', 'email', 'message'],
  exact: { handled: 'handled' },
} satisfies Table<string, string>;

export type ContactMessageSort = keyof typeof CONTACT_MESSAGES.sort;
export const CONTACT_MESSAGE_SORTS = sortsOf(CONTACT_MESSAGES);

export const contactMessagesPage = (
  dataSource: ListReader,
  page: ListRequest<ContactMessageSort>,
  filter: { q?: string; handled?: boolean },
) =>
  readPage<ContactMessageSort, 'handled', ContactMessageRecord>(dataSource, CONTACT_MESSAGES, page, filter);

export const contactMessageById = (reader: Reader, id: number) =>
  readOne<ContactMessageRecord>(reader, CONTACT_MESSAGES, id);

// Campaigns ---------------------------------------------------------------------------------

export const CAMPAIGN_STATUSES = ['draft', 'sending', 'sent'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A newsletter campaign with its sending progress (also as one object, for the progress bar). */
export interface CampaignRecord {
  id: number;
  subject: string;
  body: string;
  featuredCouponIds: number[];
  status: CampaignStatus;
  recipientsTotal: number;
  sentCount: number;
  skippedCount: number;
  progress: { sent: number; skipped: number; total: number };
  sendStartedAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
}

const CAMPAIGNS = {
  select: `id, subject, body, featured_coupon_ids AS "featuredCouponIds", status,
                  recipients_total AS "recipientsTotal", sent_count AS "sentCount", skipped_count AS "skippedCount",
                  json_build_object('sent', sent_count, 'skipped', skipped_count, 'total', recipients_total) AS progress,
                  send_started_at AS "sendStartedAt", sent_at AS "sentAt", created_at AS "createdAt"`,
  from: 'campaigns',
  sort: { id: 'id', createdAt: 'created_at', subject: 'subject', status: 'status', sentAt: 'sent_at' },
  search: ['subject'],
  exact: { status: 'status' },
} satisfies Table<string, string>;

export type CampaignSort = keyof typeof CAMPAIGNS.sort;
export const CAMPAIGN_SORTS = sortsOf(CAMPAIGNS);

export const campaignsPage = (
  dataSource: ListReader,
  page: ListRequest<CampaignSort>,
  filter: { q?: string; status?: CampaignStatus },
) => readPage<CampaignSort, 'status', CampaignRecord>(dataSource, CAMPAIGNS, page, filter);

export const campaignById = (reader: Reader, id: number) => readOne<CampaignRecord>(reader, CAMPAIGNS, id);

// Newsletter subscribers --------------------------------------------------------------------

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export interface SubscriberRecord {
  id: number;
  email: string;
  language: Language;
  status: SubscriberStatus;
  confirmationSentAt: Date | null;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
  createdAt: Date;
}

const SUBSCRIBERS = {
  select: `id, email, language, status, confirmation_sent_at AS "confirmationSentAt",
                    confirmed_at AS "confirmedAt", unsubscribed_at AS "unsubscribedAt", created_at AS "createdAt"`,
  from: 'newsletter_subscribers',
  sort: {
    id: 'id',
    createdAt: 'created_at',
    email: 'email',
    status: 'status',
    confirmedAt: 'confirmed_at',
  },
  search: ['email'],
  // The language is filtered, not sorted by, so it has a column here but no sort.
  exact: { status: 'status', language: 'language' },
} satisfies Table<string, string>;

export type SubscriberSort = keyof typeof SUBSCRIBERS.sort;
export const SUBSCRIBER_SORTS = sortsOf(SUBSCRIBERS);

export const subscribersPage = (
  dataSource: ListReader,
  page: ListRequest<SubscriberSort>,
  filter: { q?: string; status?: SubscriberStatus; language?: Language },
) => readPage<SubscriberSort, 'status' | 'language', SubscriberRecord>(dataSource, SUBSCRIBERS, page, filter);

export const subscriberById = (reader: Reader, id: number) =>
  readOne<SubscriberRecord>(reader, SUBSCRIBERS, id);

// The development mail catcher --------------------------------------------------------------

/** A mail the development mail catcher received, named as the back-office's mailbox reads it. */
export interface DevMailRecord {
  id: number;
  from: string;
  to: string;
  subject: string;
  date: Date;
  text: string;
  html: string;
}

const DEV_MAILBOX = {
  select: `id, sender AS "from", recipients AS "to", subject, received_at AS date, text_body AS text,
                  html_body AS html`,
  from: 'dev_mailbox',
  sort: { id: 'id', date: 'received_at', to: 'recipients', subject: 'subject' },
  search: ['recipients', 'subject'],
  exact: {},
} satisfies Table<string, string>;

export type DevMailSort = keyof typeof DEV_MAILBOX.sort;
export const DEV_MAIL_SORTS = sortsOf(DEV_MAILBOX);

export const devMailsPage = (
  dataSource: ListReader,
  page: ListRequest<DevMailSort>,
  filter: { q?: string },
) => readPage<DevMailSort, never, DevMailRecord>(dataSource, DEV_MAILBOX, page, filter);

export const devMailById = (reader: Reader, id: number) => readOne<DevMailRecord>(reader, DEV_MAILBOX, id);
