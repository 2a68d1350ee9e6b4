/** What "Your data" answers: the summary of what is held of a person, and its JSON export. */
import type {
  DataFactFormat,
  DataRecipient,
  DataRequestActor,
  DataRequestKind,
  GrievanceCategory,
  GrievanceState,
  PersonDataSectionKey,
} from '../../rules/privacy.js';

/** One key fact of a section (a date, an amount, a name), named for the web apps to label. */
export interface DataFact {
  name: string;
  value: string | number | null;
  format: DataFactFormat;
}

/** Someone else who received some of the section's data, and what. */
export interface DataSharedWith {
  recipient: DataRecipient;
  /** The network's or the store's name, where known. */
  name: string | null;
  /** What they received: `clickIds`, `email`. */
  what: string;
}

/** One section of the summary: how many records, the key facts, with whom shared, where to correct it. */
export interface PersonDataSection {
  section: PersonDataSectionKey;
  count: number;
  facts: DataFact[];
  sharedWith: DataSharedWith[];
  /** The page where the person corrects this section, when they can. */
  correctAt?: 'profile';
}

/** A section of the export: the summary's facts and every record, each the person's own. */
export interface PersonDataExportSection extends PersonDataSection {
  records: Array<Record<string, unknown>>;
}

export interface PersonDataSummary {
  person: { kind: 'shopper' | 'merchant'; id: number };
  generatedAt: string;
  sections: PersonDataSection[];
}

export interface PersonDataExport {
  person: { kind: 'shopper' | 'merchant'; id: number };
  generatedAt: string;
  sections: PersonDataExportSection[];
}

/** A grievance as its admins' queue and show screen read it. */
export interface GrievanceRecord {
  id: number;
  reference: string;
  name: string;
  email: string;
  category: GrievanceCategory;
  subject: string;
  message: string;
  language: string;
  personKind: 'shopper' | 'merchant' | null;
  personId: number | null;
  state: GrievanceState;
  filedAt: string;
  dueAt: string;
  /** Whole days until the answer is due; negative once overdue. */
  daysLeft: number;
  answer: string | null;
  answeredAt: string | null;
  answeredBy: string | null;
}

/** A row of the admins' data-request log, the acting admin named. */
export interface DataRequestLogEntry {
  id: string;
  kind: DataRequestKind;
  action: string;
  personKind: 'shopper' | 'merchant' | null;
  personId: number | null;
  reference: string | null;
  actedBy: DataRequestActor;
  adminId: number | null;
  adminName: string | null;
  actedAt: string;
  detail: Record<string, unknown>;
}
