/** `--spec FILE`: another OpenAPI document (YAML or JSON) read from disk, for the command line (Node only). */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';
import { fail, type Result } from '../result.js';
import { loadContract } from './compile.js';
import type { Contract } from './model.js';
import { expansionProblem, MAX_ALIASES } from './yaml-bounds.js';

/** A document larger than this is refused rather than parsed: the toolkit's own is about 20 kB. */
export const MAX_SPEC_BYTES = 4 * 1024 * 1024;

/** Reads, parses and checks a document (relative to `cwd`), or the one-line reason, naming the file. */
export function loadSpecFile(path: string, cwd = process.cwd()): Result<Contract, string> {
  let text: string;
  try {
    const info = statSync(resolve(cwd, path));
    if (!info.isFile()) return fail(`--spec ${path} is not a regular file`);
    if (info.size > MAX_SPEC_BYTES) return fail(`--spec ${path} is larger than ${MAX_SPEC_BYTES} bytes`);
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'ENOENT') return fail(`--spec ${path} does not exist`);
    return fail(`--spec ${path} cannot be read (${code === 'EACCES' ? 'no permission' : code})`);
  }
  let document: unknown;
  try {
    document = load(text, { filename: path, maxAliases: MAX_ALIASES });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return fail(`--spec ${path} is not valid YAML or JSON: ${reason}`);
  }
  // Bounded as JSON text, aliases followed: a 16 KB alias bomb names gigabytes.
  const tooLarge = expansionProblem(document, text, 2 * MAX_SPEC_BYTES);
  if (tooLarge) return fail(`--spec ${path} ${tooLarge}`);
  const contract = loadContract(document);
  return contract.ok ? contract : fail(`--spec ${path}: ${contract.error}`);
}
