import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a directory and its missing parents, one level at a time: `mkdirSync(dir, { recursive: true })`
 * spins forever under `/proc` on Node 20 instead of failing.
 */
export function ensureDirectory(path: string): void {
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw new Error(`${path} exists and is not a directory`);
    return;
  }
  if (dirname(path) !== path) ensureDirectory(dirname(path));
  mkdirSync(path);
}
