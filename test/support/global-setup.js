import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildWebApps } from './web-builds.js';

/**
 * Tests start the built API and workers as real processes: build them once per run. Browser tests
 * load the web apps' production builds (web-public, web-backoffice), rebuilt here when missing or
 * older than their sources.
 */
export default function globalSetup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  buildWebApps(root);
}
