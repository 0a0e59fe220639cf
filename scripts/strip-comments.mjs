// After `tsc`: rewrites dist/**/*.js without comments (esbuild keeps the `@__PURE__` annotations and legal
// comments that bundlers read). The declarations keep their JSDoc for editors; the package stays small
// without source maps (issue 23: at most 300 kB packed).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dist = join(import.meta.dirname, '..', 'dist');
const entryPoints = readdirSync(dist, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.js'))
  .map((file) => join(dist, file));
await build({
  entryPoints,
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  logLevel: 'warning',
});
