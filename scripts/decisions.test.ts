/**
 * docs/decisions.md is where a reader looks up a decision the code cites (`D9`, `D19`, …): every one cited
 * must have a row there, and the page, the README and the document must name the same range.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every text file under `dir` that a maintainer reads: sources, tests, docs and the document. */
function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join('src', 'generated') ? [] : files(path);
    return /\.(ts|md|yaml|js)$/.test(entry.name) ? [path] : [];
  });
}

const CITING = [
  ...['src', 'test-support', 'bench', 'scripts', 'docs'].flatMap(files),
  'README.md',
  'spec/openapi.yaml',
];

/** The decisions cited in a text: `D7`, and each one of a range such as `D1–D3`. */
function cited(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\bD(\d+)(?:[–-]D(\d+))?\b/g)) {
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let n = from; n <= to; n++) out.push(n);
  }
  return out;
}

const page = read('docs/decisions.md');
const rows = new Set([...page.matchAll(/^\| D(\d+) \|/gm)].map((m) => Number(m[1])));
const range = /^# Decisions (D1–D\d+)/.exec(page)?.[1];

describe('docs/decisions.md', () => {
  it('has a row for every decision the code, the docs and the document cite', () => {
    const missing = new Map<number, string>();
    for (const file of CITING) {
      for (const n of cited(read(file))) if (!rows.has(n) && !missing.has(n)) missing.set(n, file);
    }
    expect(rows.size).toBeGreaterThan(0);
    expect(Object.fromEntries(missing)).toEqual({});
  });

  it('has one row per decision, D1 to the last, with no gap', () => {
    const numbers = [...rows].sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('names the same range in its title, the README and the document', () => {
    expect(range).toBe(`D1–D${rows.size}`);
    expect(read('README.md')).toContain(`Decisions ${range}`);
    expect(read('spec/openapi.yaml')).toContain(`product decisions ${range}`);
  });
});
