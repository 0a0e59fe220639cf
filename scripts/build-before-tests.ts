/**
 * vitest global setup: the tests that spawn `bin/petstore.js` exercise the current sources, built exactly as
 * `npm start` builds them (scripts/build-if-stale.mjs: only when a source changed).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, 'build-if-stale.mjs')], { stdio: 'inherit' });
}
