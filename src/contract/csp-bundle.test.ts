/**
 * The built-in contract and the MSW entry, bundled for a page as a front end bundles them, carry no schema
 * compiler: no `new Function` or `eval` (which `Content-Security-Policy: script-src 'self'` blocks) and no
 * Ajv, because their validators were generated at build time. The run-time compiling path (`compile.ts`,
 * for `--spec`) is bundled too, to show the markers catch Ajv where it is.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.js';

const ROOT = packageRoot();

async function bundleForPage(entry: string) {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    external: ['msw'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]?.text ?? '', inputs: Object.keys(result.metafile.inputs) };
}

/** What of a schema compiler a bundle holds: the packages, and the code a strict CSP refuses. */
function compilerIn({ text, inputs }: { text: string; inputs: string[] }): string[] {
  const found = [
    ...new Set(inputs.flatMap((path) => /node_modules\/(ajv(?:-formats)?)\//.exec(path)?.[1] ?? [])),
  ];
  if (text.includes('new Function')) found.push('new Function');
  if (/\beval\s*\(/.test(text)) found.push('eval(');
  // Ajv's code generator names itself in its errors; minified, that string survives when identifiers do not.
  if (text.includes('CodeGen:')) found.push('CodeGen');
  return found;
}

describe('bundled for a page with a strict CSP', () => {
  it.each(['src/contract/contract.ts', 'src/contract/index.ts', 'src/msw/index.ts'])(
    '%s holds no schema compiler, no new Function and no eval',
    async (entry) => {
      expect(compilerIn(await bundleForPage(entry))).toEqual([]);
    },
  );

  it('the run-time compiling src/contract/compile.ts holds Ajv, its new Function and code generator (the check can fail)', async () => {
    expect(compilerIn(await bundleForPage('src/contract/compile.ts'))).toEqual([
      'ajv',
      'ajv-formats',
      'new Function',
      'CodeGen',
    ]);
  });
});
