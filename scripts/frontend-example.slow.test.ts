/**
 * The front-end quick start passes as written (issue 24): the example app `examples/react-vitest/` (whose
 * files docs/frontend.md shows, block for file: `frontend-quick-start.test.ts`) is copied into an empty
 * folder, the packed tarball is installed there with the example's pinned dependencies from the registry,
 * and the example's own `vitest run` (jsdom) and `tsc` must pass. Slow (a pack, an install of React,
 * Testing Library, jsdom and vitest): `*.slow.test.ts`, so a run can leave it out.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';
import { expectSuccess, INSTALL_FLAGS, packProject, run } from './packed-tarball.js';

const EXAMPLE = join(packageRoot(), 'examples', 'react-vitest');

let work = '';
let app = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-frontend-'));
  const { tarball } = await packProject(work);
  app = join(work, 'app');
  cpSync(EXAMPLE, app, { recursive: true, filter: (source) => basename(source) !== 'node_modules' });
  // The tarball replaces the example's `file:` path to it; the rest comes from the example's package.json.
  expectSuccess(await run('npm', ['install', tarball, ...INSTALL_FLAGS], app, 400_000));
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the front-end quick start, installed from the packed tarball into an empty folder', () => {
  it('passes its vitest run under jsdom', { timeout: 180_000 }, async () => {
    const result = await run('npx', ['vitest', 'run'], app, 170_000);
    expectSuccess(result);
    expect(stripVTControlCharacters(result.stdout)).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it('type-checks as written', { timeout: 180_000 }, async () => {
    expectSuccess(await run('npx', ['tsc', '--noEmit'], app, 170_000));
  });
});
