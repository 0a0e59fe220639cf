/**
 * The base path comes from the document's `servers` (D12), so production code never spells `/v1` itself:
 * a document served with `--spec` under `/v2` would otherwise be half served under `/v1`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** Generated from the document (it may name its own servers). */
const EXCLUDED = ['src/generated/'];

function productionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : productionSources(path);
    const file = relative(ROOT, path);
    const isSource = /\.[jt]s$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name);
    return isSource && !EXCLUDED.some((excluded) => file.startsWith(excluded)) ? [file] : [];
  });
}

/** A string literal that is `/v1`, or that holds `/v1/`; comments (examples of URLs) do not count. */
const LITERAL = /(['"`])\/v1\1|['"`][^'"`\n]*\/v1\//;

function literalsIn(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .filter((line) => LITERAL.test(line))
    .map((line) => line.trim());
}

describe('no base path literal in production code', () => {
  it.each([
    { name: 'finds a quoted /v1', given: "const API_BASE = '/v1';", want: 1 },
    { name: 'finds a path below /v1', given: 'fetch(`/api/v1/store/orders`);', want: 1 },
    { name: 'finds a double-quoted /v1', given: 'x.endsWith("/v1")', want: 1 },
    { name: 'ignores a comment', given: " * @example requestPath('/v1/store/orders')", want: 0 },
    { name: 'ignores a URL ending in its base', given: "e.g. 'http://127.0.0.1:4010/v1'", want: 0 },
  ])('the search $name', ({ given, want }) => {
    expect(literalsIn(given)).toHaveLength(want);
  });

  it('reads the base path from the contract everywhere in src/ and bin/', () => {
    const files = [...productionSources(join(ROOT, 'src')), ...productionSources(join(ROOT, 'bin'))];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      literalsIn(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line}`),
    );
    expect(found).toEqual([]);
  });
});
