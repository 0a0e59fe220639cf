/**
 * Creating the report directory one level at a time. Node's `mkdirSync(path, { recursive: true })` loops
 * forever under `/proc` (each level "does not exist" and "cannot be created" at once); plain mkdir of each
 * missing level fails at the first that cannot be made, with its reason.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `path` and any missing parents; throws the first level's error (ENOENT, EACCES, ENOTDIR).
 *
 * @example makeDirectory('reports/proxy')
 */
export function makeDirectory(path: string): void {
  const missing: string[] = [];
  for (let current = resolve(path); !existsSync(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const level of missing.reverse()) mkdirSync(level);
}
