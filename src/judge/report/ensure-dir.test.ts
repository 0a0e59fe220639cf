import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, resultOf } from './test-support/fixtures.js';
import { ensureDirectory, writeReports } from './write.js';

const root = mkdtempSync(join(tmpdir(), 'ensure-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ensureDirectory', () => {
  it('creates every missing level', () => {
    const dir = join(root, 'a', 'b', 'c');
    ensureDirectory(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('accepts a directory that exists', () => {
    expect(() => ensureDirectory(root)).not.toThrow();
  });

  it('refuses a path under a file', () => {
    const file = join(root, 'file');
    writeFileSync(file, '');
    expect(() => ensureDirectory(join(file, 'x'))).toThrow(/exists and is not a directory/);
  });

  // mkdirSync(…, { recursive: true }) never returns here on Node 20: this test would hang, not fail.
  it.skipIf(process.platform !== 'linux')('refuses a path under /proc at once', () => {
    expect(() => ensureDirectory('/proc/petstore-no-such/dir')).toThrow(/ENOENT/);
  });
});

describe('writeReports', () => {
  it('writes every report it can, then gives the one line for the first it could not', () => {
    const dir = join(root, 'reports');
    mkdirSync(join(dir, 'proxy.json'), { recursive: true });
    const result = resultOf([check('list.ok', 'PASS')]);
    const { written, failure, cause } = writeReports(dir, 'proxy', ['json', 'junit', 'html'], result);
    expect(written).toEqual([
      ['junit', join(dir, 'proxy-junit.xml')],
      ['html', join(dir, 'proxy.html')],
    ]);
    expect(readFileSync(join(dir, 'proxy-junit.xml'), 'utf8')).toContain('<testsuites');
    expect(failure).toMatch(/^cannot write the reports under .*reports: EISDIR.*; check --output-dir\.$/);
    expect(cause).toMatchObject({ code: 'EISDIR' }); // a library caller (proxy.close()) keeps the fs error
  });
});
