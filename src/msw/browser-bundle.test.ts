/**
 * The boundary between the web-standard mock and its Node adapters, proven by the bundler a front end
 * uses: the MSW entry bundles for `platform: 'browser'` with no Node built-in in it, while the Node
 * entry (which binds a port and reads files) does not.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../contract/package-root.js';

const ROOT = packageRoot();
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

async function bundleForBrowser(entry: string) {
  return build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

/** Every module the bundle took in that is a Node built-in, or one a package disabled for browsers. */
function nodeModulesIn(metafile: Metafile): string[] {
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
  return [...Object.keys(metafile.inputs), ...imports].filter(
    (path) => BUILTINS.has(path) || path.startsWith('(disabled):'),
  );
}

describe('the browser bundle', () => {
  it('bundles src/msw/index.ts for the browser with no Node built-in', async () => {
    const result = await bundleForBrowser('src/msw/index.ts');
    expect(result.errors).toEqual([]);
    expect(nodeModulesIn(result.metafile)).toEqual([]);
    const text = result.outputFiles[0]?.text ?? '';
    expect(text).toContain('order_already_shipped');
    expect(text).not.toMatch(/\b(?:require\(|from )["']node:/);
  });

  it('refuses the Node entry src/mock/index.ts, which binds a port (the check can fail)', async () => {
    const failure = await bundleForBrowser('src/mock/index.ts').then(
      () => undefined,
      (error: { errors?: Array<{ text: string }> }) => error.errors?.map((e) => e.text) ?? [],
    );
    expect(failure).toEqual(expect.arrayContaining([expect.stringMatching(/node:http|node:fs/)]));
  });
});
