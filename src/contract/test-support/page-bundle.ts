/**
 * What a page pays for one of our entries: esbuild bundles it as a front end would (browser, ESM, minified,
 * msw left out since the page has it anyway) and gzip -9 measures the result, as `docs/benchmarks.md`
 * reports it.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { packageRoot } from '../package-root.js';

const ROOT = packageRoot();

export interface PageBundle {
  text: string;
  /** Every module with code in the bundle, as paths from the project root (`node_modules/js-yaml/…`). */
  inputs: string[];
  minifiedBytes: number;
  gzipBytes: number;
}

/**
 * Bundles an entry file (a path from the project root), or a module's source given as `{ source }` (what
 * a page that imports one function writes).
 *
 * @example (await bundleForPage('src/msw/index.ts')).gzipBytes // 20434
 */
export async function bundleForPage(entry: string | { source: string }): Promise<PageBundle> {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [join(ROOT, entry)] }
      : { stdin: { contents: entry.source, resolveDir: ROOT, loader: 'ts' } }),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    external: ['msw'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]?.contents ?? new Uint8Array();
  // What the output holds, not what was read: a module whose exports were all shaken off costs nothing.
  const held = Object.values(result.metafile.outputs).flatMap((file) =>
    Object.entries(file.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
  return {
    text: new TextDecoder().decode(output),
    inputs: held,
    minifiedBytes: output.byteLength,
    gzipBytes: gzipSync(output, { level: 9 }).byteLength,
  };
}
