import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Tests start the built API and workers as real processes: build them once per run. */
export default function globalSetup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
}
