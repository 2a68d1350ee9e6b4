import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';

/**
 * Events carry ids, never a person's fields: the outbox is the lasting event log, and a person's
 * email, name, mobile, address or client address in it would outlive their account's erasure. A
 * consumer that needs such a field reads it from its owner by id when it handles the event. This
 * reads every event class's payload type (with the type checker, so inherited and generic payloads
 * count) and refuses a field named like a personal one, at any depth.
 */
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_SRC = join(REPO_ROOT, 'api/src');

const PERSONAL =
  /email|name|mobile|phone|address|^ip$|^ip[A-Z]|Ip$|message|comment|orderId|purchaseReference/i;

/**
 * Fields that match the pattern yet name no person: things of the marketplace (a product, a
 * category, a slot, a feed source, an advertiser's store without an account).
 */
const NOT_PERSONAL = new Set([
  'CashbackChanged.categoryName',
  'ProductSubmitted.productName',
  'ProductApproved.productName',
  'ProductRejected.productName',
  'SlotCreated.name',
  'SlotUpdated.name',
  'SlotDeleted.name',
  'FeedSourceCreated.name',
  'FeedSourceUpdated.name',
  'FeedSourceDeleted.name',
  'StoreWithoutAccountCreated.name',
  'FeedCategoryMapped.name',
]);

/** Every api source file that declares an event class, wherever it is (an events/ folder or not). */
function eventFiles(): string[] {
  return (readdirSync(API_SRC, { recursive: true }) as string[])
    .filter((path) => path.endsWith('.ts') && !path.includes('migrations'))
    .map((path) => join(API_SRC, path))
    .filter((file) => /extends (DomainEvent|\w+Event)</.test(readFileSync(file, 'utf8')));
}

/** `Class.field` (nested fields as `Class.field.inner`) of every concrete event class's payload. */
function payloadFields(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    experimentalDecorators: true,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const fields: string[] = [];
  const walk = (type: ts.Type, path: string, depth: number) => {
    for (const property of checker.getPropertiesOfType(checker.getNonNullableType(type))) {
      const name = `${path}.${property.getName()}`;
      fields.push(name);
      if (depth < 3) {
        const inner = checker.getNonNullableType(checker.getTypeOfSymbol(property));
        const element = checker.isArrayType(inner)
          ? checker.getTypeArguments(inner as ts.TypeReference)[0]
          : inner;
        if (element && element.flags & ts.TypeFlags.Object && !checker.isArrayType(element))
          walk(element, name, depth + 1);
      }
    }
  };
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      if (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Abstract) return;
      const classType = checker.getTypeAtLocation(node.name);
      const payload = classType.getProperty('payload');
      if (!payload) return;
      walk(checker.getTypeOfSymbolAtLocation(payload, node.name), node.name.text, 1);
    });
  }
  return fields;
}

describe('event payloads', () => {
  const files = eventFiles();
  const fields = payloadFields(files);

  it('are read from every event class', () => {
    expect(files.map((file) => relative(REPO_ROOT, file))).toEqual(
      expect.arrayContaining([
        'api/src/identity/events/account-events.ts',
        'api/src/claims/events/claim-events.ts',
      ]),
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        'UserRegistered.referralCode',
        'ClickedOut.couponId',
        'PayoutPaid.amountPaise',
      ]),
    );
  });

  it('carry no field named like a person’s email, name, mobile, address or client address', () => {
    const personal = fields.filter((field) => {
      const [eventName, ...path] = field.split('.');
      // An id names a record (the person's own is in its owner's table), never the person.
      const named = path.some((part) => PERSONAL.test(part) && !/Ids?$/.test(part));
      return named && !NOT_PERSONAL.has(`${eventName}.${path[0]}`);
    });
    expect(personal).toEqual([]);
    // Each exception names a field that exists, so the list shrinks with the payloads.
    expect([...NOT_PERSONAL].filter((field) => !fields.includes(field))).toEqual([]);
  });

  it('would notice such a field (the check itself works)', () => {
    for (const name of [
      'email',
      'userName',
      'mobileNumber',
      'phone',
      'address',
      'clientAddress',
      'ip',
      'ipHash',
    ])
      expect(PERSONAL.test(name)).toBe(true);
    for (const name of ['merchantId', 'userId', 'amountPaise', 'couponId', 'clickId'])
      expect(PERSONAL.test(name)).toBe(false);
  });
});
