import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildWebApps } from './web-builds.js';

const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

/**
 * Tests start the built API and workers as real processes: build them once per run. Browser tests
 * load the web apps' production builds (web-public, web-backoffice), rebuilt here when missing or
 * older than their sources. Every test file gets its own database: copies of one template the
 * migrations build here once per run (the test processes inherit its name), instead of running
 * every migration again for each file.
 */
export default async function globalSetup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  buildWebApps(root);
  const { migrateDatabase } = await import(
    pathToFileURL(`${root}api/dist/src/infrastructure/database/database-setup.js`).href
  );
  const template = `offers_test_template_${randomBytes(4).toString('hex')}`;
  await migrateDatabase(`${SERVER_URL}/${template}`);
  process.env.TEST_DATABASE_TEMPLATE = template;
}
