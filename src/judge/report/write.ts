/** The report files of a run, written the same way by the suite's CLI and the proxy. */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConformanceResult } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './input.js';
import { renderJunit } from './junit.js';

/** Each file after the tool's name (`conformance-junit.xml`), and its writer. */
const FILES = {
  json: ['.json', renderJson],
  junit: ['-junit.xml', renderJunit],
  html: ['.html', renderHtml],
} as const;

export type FileReporter = keyof typeof FILES;
export const FILE_REPORTERS = Object.keys(FILES) as FileReporter[];

/** Makes a report's directory one level at a time: `mkdirSync(dir, { recursive: true })` spins under `/proc` on Node 20. */
export function ensureDirectory(path: string): void {
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw new Error(`${path} exists and is not a directory`);
  } else {
    if (dirname(path) !== path) ensureDirectory(dirname(path));
    mkdirSync(path);
  }
}

/** Writes every report it can under `dir`; `failure` is the one line for the first it could not. */
export function writeReports(
  dir: string,
  tool: 'conformance' | 'proxy',
  reporters: readonly FileReporter[],
  result: ConformanceResult,
): { written: Array<[FileReporter, string]>; failure: string | null; cause?: unknown } {
  const written: Array<[FileReporter, string]> = [];
  let failure: string | null = null;
  let cause: unknown;
  for (const reporter of reporters) {
    const [suffix, render] = FILES[reporter];
    const path = join(dir, `${tool}${suffix}`);
    try {
      ensureDirectory(dir);
      // No text scrub: the result is redacted field by field; a scrub would rewrite a file's structure too.
      writeFileSync(path, render(result));
      written.push([reporter, path]);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      failure ??= `cannot write the reports under ${dir}: ${why}; check --output-dir.`;
      cause ??= error;
    }
  }
  return { written, failure, cause };
}
