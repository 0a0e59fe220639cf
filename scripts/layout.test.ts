/**
 * The layout is the architecture. `src/contract` is the base; the mock, the MSW handlers and the client
 * build on it; `src/judge` (exchange rules, the cross-request observer, findings, reports, redaction)
 * knows neither the suite nor the proxy; the suite (`src/conformance`) and the proxy (`src/proxy`) are
 * two ways of obtaining exchanges for the judge; `src/cli` is the one place that knows every tool.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative module a file imports (static or dynamic), as a path from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1] ?? '',
  );
  return specifiers.map((specifier) => relative(ROOT, resolve(file, '..', specifier)));
}

const ABOVE = ['src/judge', 'src/conformance', 'src/proxy', 'src/cli', 'test-support', 'bench', 'scripts'];

/** What each folder may not import: everything above it in the design. */
const FORBIDDEN: ReadonlyArray<[folder: string, forbidden: readonly string[]]> = [
  ['src/contract', ['src/mock', 'src/msw', 'src/client', ...ABOVE]],
  ['src/mock', ['src/msw', 'src/client', ...ABOVE]],
  ['src/msw', ['src/client', ...ABOVE]],
  ['src/client', ['src/mock', 'src/msw', ...ABOVE]],
  // Plain data for pages: nothing that would bring the contract, Ajv or a YAML parser with it.
  ['src/fixtures', ['src/contract', 'src/mock', 'src/msw', ...ABOVE]],
  ['src/judge', ['src/mock', 'src/msw', 'src/client', ...ABOVE.filter((a) => a !== 'src/judge')]],
  ['src/conformance', ['src/proxy', 'src/cli', 'test-support', 'bench', 'scripts']],
  ['src/proxy', ['src/conformance', 'src/cli', 'test-support', 'bench', 'scripts']],
];

describe('the layout', () => {
  it.each(FORBIDDEN)('keeps %s from importing what stands above it', (folder, forbidden) => {
    const offenders = sources(join(ROOT, folder)).flatMap((file) =>
      importsOf(file)
        .filter((target) => forbidden.some((above) => target === above || target.startsWith(`${above}/`)))
        .map((target) => `${relative(ROOT, file)} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('sees the imports it checks (the dispatcher imports every tool)', () => {
    expect(importsOf(join(ROOT, 'src', 'cli', 'main.ts'))).toEqual(
      expect.arrayContaining([
        join('src', 'mock', 'cli.js'),
        join('src', 'conformance', 'cli.js'),
        join('src', 'proxy', 'cli.js'),
      ]),
    );
  });
});
