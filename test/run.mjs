// `npm test`: installs what is missing, makes sure PostgreSQL and Redis are up, then runs the
// lint and format check, the type check and every test. Extra arguments go to Jest
// (`npm test -- test/backbone/outbox.test.ts`). Node built-ins only: it runs before `npm install`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies, ensureServices, REPO_ROOT, serviceUrls } from '../api/scripts/local-setup.mjs';

process.chdir(REPO_ROOT);
ensureDependencies(REPO_ROOT);
await ensureServices(serviceUrls());

const jestArguments = process.argv.slice(2);
const bin = (name) => join(REPO_ROOT, 'node_modules', '.bin', name);
const resultsFile = join(REPO_ROOT, '.run', 'jest-results.json');
mkdirSync(join(REPO_ROOT, '.run'), { recursive: true });

const steps = [
  // Checking a chosen file or two is a debugging run: skip the whole-repo checks.
  ...(jestArguments.length === 0
    ? [
        { name: 'lint and format', command: bin('biome'), args: ['ci', '--colors=off', '.'] },
        { name: 'type check', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
        { name: 'type check (web-public)', command: bin('tsc'), args: ['-p', 'web-public/tsconfig.json'] },
        {
          name: 'type check (web-backoffice)',
          command: bin('tsc'),
          args: ['-p', 'web-backoffice/tsconfig.json'],
        },
      ]
    : []),
  {
    name: 'tests',
    command: process.execPath,
    args: [
      '--experimental-vm-modules',
      '--no-warnings=ExperimentalWarning',
      join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--config',
      'test/jest.config.js',
      '--json',
      `--outputFile=${resultsFile}`,
      ...jestArguments,
    ],
  },
];

for (const step of steps) {
  console.log(`\n▶ ${step.name}`);
  const { status, signal } = spawnSync(step.command, step.args, { stdio: 'inherit' });
  if (step.name === 'tests') printTally();
  if (status !== 0) {
    console.error(`\n✖ ${step.name} failed${signal ? ` (${signal})` : ''}`);
    process.exit(status ?? 1);
  }
}

/** One plain closing line, whatever reporter Jest used. */
function printTally() {
  try {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    const skipped = results.numPendingTests + results.numTodoTests;
    console.log(
      `\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
    );
  } catch {
    // Jest did not get far enough to write results; its own output says why.
  }
}
