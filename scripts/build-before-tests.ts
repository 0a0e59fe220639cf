/**
 * vitest global setup: compiles the command to dist/ when the sources changed since the last build, so
 * tests that spawn `bin/petstore.js` exercise the current sources, exactly as a user's `npm ci` would
 * build them, and a run that changed nothing pays nothing (a full build costs several seconds, more than
 * most test files take).
 *
 * The fingerprint is every input of `tsconfig.build.json` (path, size, modification time) plus the
 * compiler's version; it is written beside the output only after a build that succeeded.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';

const STAMP = join('dist', '.build-fingerprint');

function inputs(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return inputs(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** What the build's output depends on, as one hash. */
export function buildFingerprint(root: string, tsc: string): string {
  const hash = createHash('sha256');
  const files = ['index.ts', 'tsconfig.json', 'tsconfig.build.json', ...inputs(root, 'src')].sort();
  for (const file of files) {
    const stat = statSync(join(root, file));
    hash.update(`${relative(root, join(root, file))}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  hash.update(readFileSync(join(tsc, '..', '..', 'package.json')));
  return hash.digest('hex');
}

export default function setup(): void {
  const root = packageRoot();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const fingerprint = buildFingerprint(root, tsc);
  const stamp = join(root, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) return;
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, fingerprint);
}
