/**
 * The quick start of docs/frontend.md is the example app `examples/react-vitest/`, block for file (issue
 * 24): a block that opens with `// PATH` must equal that file of the example, and every code file of the
 * example must be shown. So what a newcomer copies is what `frontend-example.slow.test.ts` runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();
const EXAMPLE = join(ROOT, 'examples', 'react-vitest');
const page = readFileSync(join(ROOT, 'docs', 'frontend.md'), 'utf8');
const quickStart = page.slice(
  page.indexOf('## Quick start'),
  page.indexOf('\n## ', page.indexOf('## Quick start')),
);

/** The quick start's code blocks that name their file on their first line, by that file's path. */
const blocks = new Map(
  [...quickStart.matchAll(/```tsx?\n(\/\/ (\S+)[^\n]*\n[\s\S]*?)```/g)].map(([, code, path]) => [
    path as string,
    code as string,
  ]),
);

const codeFiles = (readdirSync(EXAMPLE, { recursive: true }) as string[])
  .filter((path) => /\.tsx?$/.test(path) && !path.includes('node_modules'))
  .sort();

describe('the quick start of docs/frontend.md', () => {
  it('shows every code file of examples/react-vitest, and no other', () => {
    expect(codeFiles).toContain('src/test/setup.ts');
    expect([...blocks.keys()].sort()).toEqual(codeFiles);
  });

  it.each(codeFiles)('shows %s exactly as the example holds it', (path) => {
    expect(blocks.get(path)).toBe(readFileSync(join(EXAMPLE, path), 'utf8'));
  });
});
