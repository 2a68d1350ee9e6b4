import type { EntityManager } from 'typeorm';
import { paiseToRupees } from '../rules/money.js';
import type { DataFactFormat } from '../rules/privacy.js';
import { storeIdentities } from '../storefront/queries/store-identity.js';
import type { DataFact, PersonDataExportSection } from './queries/answers.js';

/** The person whose data is described: their account, and the address rows keyed by address are found by. */
export interface PersonToDescribe {
  kind: 'shopper' | 'merchant';
  id: number;
  email: string;
  mobile?: string | null;
}

export type DataReader = Pick<EntityManager, 'query'>;

/**
 * One owner describing what it holds of the person: a section per kind of record, with its count,
 * key facts and the records themselves (the person's own data only, no secret: no password hash,
 * token or another person's data). The summary drops the records; the export keeps them.
 */
export type DescribePerson = (
  reader: DataReader,
  person: PersonToDescribe,
) => Promise<PersonDataExportSection[]>;

/** A fact of a section, as the summary shows it. */
export const fact = (
  name: string,
  value: string | number | null | undefined,
  format: DataFactFormat = 'text',
): DataFact => ({
  name,
  value: value ?? null,
  format,
});

/** A date or timestamp of a row as the export writes it (ISO 8601), or null. */
export const isoDate = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** Paise as rupees with two decimals, as every money field of the API is written. */
export const rupees = (paise: number | string | null | undefined): string | null =>
  paise === null || paise === undefined ? null : paiseToRupees(Number(paise));

/** The names shoppers know the stores by, by merchant id (a store that is gone is left out). */
export async function storeNames(
  reader: DataReader,
  merchantIds: readonly number[],
): Promise<Map<number, string>> {
  const stores = await storeIdentities(reader, merchantIds);
  return new Map([...stores].map(([id, store]) => [id, store.name]));
}

/** The role the person's sessions, votes and referral code are recorded under. */
export const roleOf = (person: PersonToDescribe): 'user' | 'merchant' =>
  person.kind === 'shopper' ? 'user' : 'merchant';
