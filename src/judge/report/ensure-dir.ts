/**
 * Creates a directory and its missing parents, one level at a time. `mkdirSync(dir, { recursive: true })`
 * spins forever at full CPU under `/proc` on Node 20 (it retries the parent it cannot create), so the
 * parents are created here from the nearest existing one down, and the first refusal ends it.
 */
import { mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * @example ensureDirectory('/tmp/reports/conformance') // creates /tmp/reports, then its child
 * @throws the error of the first level that cannot be created, or when a level is not a directory
 */
export function ensureDirectory(path: string): void {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    const found = statOrNull(current);
    if (found !== null) {
      if (!found.isDirectory()) throw new Error(`${current} exists and is not a directory`);
      break;
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of missing.reverse()) mkdirSync(dir);
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
