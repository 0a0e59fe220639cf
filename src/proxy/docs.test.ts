import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../contract/package-root.js';
import { CLIENT_RULES, WATCHED_RULES } from './report.js';

const page = readFileSync(join(packageRoot(), 'docs', 'proxy.md'), 'utf8');

describe('docs/proxy.md lists every rule the proxy judges', () => {
  it.each(Object.entries(WATCHED_RULES).map(([id, [citation, level]]) => [id, citation, level] as const))(
    '%s (%s, %s)',
    (id, citation, level) => {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${id}\` |`));
      expect(row, `a table row for ${id}`).toBeDefined();
      expect(row).toContain(`| ${citation} | ${level} |`);
    },
  );

  it.each(Object.entries(CLIENT_RULES).map(([id, [citation]]) => [id, citation] as const))(
    '%s (%s)',
    (id, citation) => {
      expect(page).toContain(`| \`${id}\` | ${citation} |`);
    },
  );
});
