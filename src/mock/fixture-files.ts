/**
 * The Node side of fixtures: where the built-in ones live and reading a fixture file. Parsing and
 * checking the text is `fixtures.ts`, which runs anywhere; this file only adds the file system.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../contract/package-root.js';
import { fail, type Result } from '../result.js';
import {
  buildFixtures,
  FIXTURE_DATA_SOURCE,
  type FixtureData,
  FixtureError,
  type FixtureSet,
  parseFixtureText,
} from './fixtures.js';

export const FIXTURES_DIR = join(packageRoot(), 'fixtures');
export const DEFAULT_FIXTURES_PATH = join(FIXTURES_DIR, 'default.yaml');
export const FIXTURES_SCHEMA_PATH = join(FIXTURES_DIR, 'fixtures.schema.json');

/**
 * Reads and checks a fixture file (YAML or JSON; JSON is YAML).
 *
 * @example loadFixtureFile('fixtures/default.yaml') // { ok: true, value: { orders, pets, … } }
 */
export function loadFixtureFile(path: string): Result<FixtureSet, FixtureError> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : `cannot be read (${code ?? String(error)})`;
    return fail(new FixtureError(path, [reason]));
  }
  return parseFixtureText(text, path, path.endsWith('.json') ? 'json' : 'auto');
}

/** Fixtures from a path or from data given in-process; the built-in ones when neither is given. */
export function loadFixtures(fixtures: string | FixtureData | undefined): Result<FixtureSet, FixtureError> {
  if (fixtures === undefined) return loadFixtureFile(DEFAULT_FIXTURES_PATH);
  if (typeof fixtures === 'string') return loadFixtureFile(fixtures);
  return buildFixtures(fixtures, FIXTURE_DATA_SOURCE);
}
