import type {
  FeedCredentialKind,
  FeedCsvMapping,
  FeedFormat,
  FeedMode,
  FeedPostbackMapping,
  FeedReviewPolicy,
  FeedRunStatus,
  FeedRunTrigger,
} from '../../rules/feeds.js';

/** A run as lists show it. */
export interface FeedRunSummary {
  id: number;
  sourceId: number;
  sourceName: string;
  status: FeedRunStatus;
  trigger: FeedRunTrigger;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  acceptedAt: string | null;
  rowsRead: number;
  added: number;
  updated: number;
  unchanged: number;
  ended: number;
  duplicates: number;
  rejected: number;
  /** Rows of advertisers not mapped to a store yet: they flow on a run after the mapping. */
  waiting: number;
  error: string | null;
}

export interface FeedRejectionAnswer {
  line: number;
  rowId: string | null;
  reason: string;
  message: string;
}

/** A run with its first rejected rows (all of them in its CSV). */
export interface FeedRunAnswer extends FeedRunSummary {
  /** Bytes of the uploaded feed while it is kept (until the run ends), else null. */
  uploadBytes: number | null;
  rejections: FeedRejectionAnswer[];
}

/**
 * A feed source as admins see it. The credential is write-only: only its kind is shown, never
 * its values.
 */
export interface FeedSourceAnswer {
  id: number;
  name: string;
  format: FeedFormat;
  url: string | null;
  credential: { kind: FeedCredentialKind; set: true } | null;
  scheduleMinutes: number | null;
  mode: FeedMode;
  slotId: number;
  slotName: string;
  reviewPolicy: FeedReviewPolicy;
  mapping: FeedCsvMapping | null;
  subIdParam: string;
  /** How the network names its postbacks' fields and statuses. */
  postbackMapping: FeedPostbackMapping;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastRun: { id: number; status: FeedRunStatus; requestedAt: string; finishedAt: string | null } | null;
}

/**
 * One source with its postback secret and the address its network calls with it (shown to
 * admins only, as a merchant sees its own).
 */
export interface FeedSourceRecordAnswer extends FeedSourceAnswer {
  postbackSecret: string;
  /** `<API>/api/postbacks/networks/<id>?token=<secret>`: the network adds its fields' macros. */
  postbackUrl: string;
}
