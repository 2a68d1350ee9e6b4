import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The web apps whose built files browser tests load, each with a file its build writes last. */
const WEB_APPS = {
  'web-public': join('dist', 'server', 'entry-server.js'),
  'web-backoffice': join('dist', 'index.html'),
};
/** Sources outside an app that it bundles (the shared rules). */
const SHARED_SOURCES = ['api/src/rules'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(
    stats.mtimeMs,
    ...readdirSync(path)
      // The site's server is compiled with the API, not by the app's build.
      .filter((name) => name !== 'node_modules' && name !== 'dist' && name !== 'server')
      .map((name) => newestChange(join(path, name))),
  );
}

/** Why the app's dist is out of date, or undefined when it is current. */
export function staleReason(root, app) {
  const builtAt = newestChange(join(root, app, WEB_APPS[app]));
  if (builtAt === 0) return 'not built yet';
  const sources = [join(root, app), ...SHARED_SOURCES.map((path) => join(root, path))];
  return sources.some((path) => newestChange(path) > builtAt)
    ? 'sources changed since the last build'
    : undefined;
}

/** Builds every present web app whose dist is missing or older than its sources. */
export function buildWebApps(root) {
  for (const app of Object.keys(WEB_APPS)) {
    if (!existsSync(join(root, app, 'package.json'))) continue;
    const reason = staleReason(root, app);
    if (!reason) continue;
    console.log(`Building ${app}: ${reason}.`);
    // Jest sets NODE_ENV=test, which would bundle React's development build.
    execFileSync('npm', ['run', '--silent', 'build', '-w', app], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
