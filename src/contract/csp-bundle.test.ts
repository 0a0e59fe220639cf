/**
 * The built-in contract and the MSW entry, bundled for a page as a front end bundles them, carry no schema
 * compiler: no `new Function` or `eval` (which `Content-Security-Policy: script-src 'self'` blocks) and no
 * Ajv, because their validators were generated at build time. The run-time compiling path (`compile.ts`,
 * for `--spec`) is bundled too, to show the markers catch Ajv where it is. Fixtures are data in a page, so
 * the MSW entry carries no YAML parser either; the Node-side fixture-text.ts shows that check can fail.
 */
import { describe, expect, it } from 'vitest';
import { bundleForPage } from './test-support/page-bundle.js';

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

  /** The YAML parsers a bundle holds. */
  const yamlParsersIn = ({ inputs }: { inputs: string[] }) =>
    inputs.flatMap((path) => /node_modules\/(js-yaml|yaml)\//.exec(path)?.[1] ?? []);

  it('the MSW entry holds no YAML parser: fixtures are data in a page', async () => {
    expect(yamlParsersIn(await bundleForPage('src/msw/index.ts'))).toEqual([]);
  });

  it('the Node-side src/mock/fixture-text.ts holds js-yaml (the check can fail)', async () => {
    expect(new Set(yamlParsersIn(await bundleForPage('src/mock/fixture-text.ts')))).toEqual(
      new Set(['js-yaml']),
    );
  });

  it('the run-time compiling src/contract/compile.ts holds Ajv, its new Function and code generator (the check can fail)', async () => {
    expect(compilerIn(await bundleForPage('src/contract/compile.ts'))).toEqual([
      'ajv',
      'ajv-formats',
      'new Function',
      'CodeGen',
    ]);
  });
});
