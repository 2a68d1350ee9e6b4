import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Tests start the built API and workers as real processes: build them once per run. */
export default function globalSetup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  // The browser tests run against the production build of the public site.
  if (webPublicIsStale(root)) {
    // Jest sets NODE_ENV=test, with which Vite would bundle React's development build (441 KB).
    execFileSync('npm', ['run', '--silent', 'build', '-w', 'web-public'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}

/** True when the site's build is missing or older than any of its sources (rules included). */
function webPublicIsStale(root) {
  const site = join(root, 'web-public');
  if (!existsSync(join(site, 'package.json'))) return false;
  const built = join(site, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const sources = [
    join(site, 'src'),
    join(site, 'index.html'),
    join(site, 'vite.config.ts'),
    join(site, 'package.json'),
    join(root, 'api', 'src', 'rules'),
  ];
  return sources.some((source) => newestIn(source) > builtAt);
}

function newestIn(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newestIn(join(path, name))));
}
