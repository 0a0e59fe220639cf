/**
 * The layout is the architecture: `src/` (the contract, the mock, the client) is the base that the
 * conformance suite and the command build on, so nothing in `src/` may import from above it.
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
    return /\.tsx?$/.test(entry.name) ? [path] : [];
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

describe('the layout', () => {
  it.each(['conformance', 'cli', 'proxy', 'bench', 'scripts'])('keeps src/ from importing %s/', (above) => {
    const offenders = sources(join(ROOT, 'src')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === above || target.startsWith(`${above}/`))
        .map((target) => `${relative(ROOT, file)} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('sees the imports it checks (the dispatcher imports both tools)', () => {
    expect(importsOf(join(ROOT, 'cli', 'main.ts'))).toEqual(
      expect.arrayContaining([join('src', 'mock', 'cli.js'), join('conformance', 'cli.js')]),
    );
  });
});
