import { expect } from '@jest/globals';
import type { AxeViolation } from './browser.js';

/**
 * Fails with each violation's rule and elements, so a failure says what to fix. Apart from
 * browser.ts, which the benchmarks load outside Jest.
 */
export function expectAccessible(violations: AxeViolation[]): void {
  expect(
    violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}
