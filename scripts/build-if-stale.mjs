#!/usr/bin/env node
// Compiles dist/ only when an input of tsconfig.build.json changed since the last good build, so a second
// `npm start` answers at once and a test run that changed nothing pays nothing (a full build costs ~15 s here).
// The fingerprint is each input's path, size and modification time plus the compiler's version; it is written
// beside the output only after a build that succeeded. Plain JS: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-fingerprint');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const sources = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

const hash = createHash('sha256');
const build = ['scripts/build-if-stale.mjs', 'scripts/strip-comments.mjs'];
for (const file of ['index.ts', 'tsconfig.json', 'tsconfig.build.json', ...build, ...sources('src')].sort()) {
  const { size, mtimeMs } = statSync(join(root, file));
  hash.update(`${file}\0${size}\0${mtimeMs}\n`);
}
hash.update(readFileSync(join(tsc, '..', '..', 'package.json')));
const fingerprint = hash.digest('hex');

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== fingerprint) {
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  await import('./strip-comments.mjs');
  writeFileSync(stamp, fingerprint);
}
