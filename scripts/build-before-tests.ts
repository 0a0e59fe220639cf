/**
 * vitest global setup: compiles the command to dist/ once per test run, so tests that spawn
 * `bin/petstore.js` exercise the current sources, exactly as a user's `npm ci` would build them.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { packageRoot } from '../src/contract/package-root.js';

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: packageRoot(),
    stdio: 'inherit',
  });
}
