/**
 * What the package tests share: child processes that never reject (a failure shows its output in the
 * assertion), and the tarball as a fresh clone would pack it. Used by `pack-and-install.test.ts` and
 * `frontend-example.slow.test.ts`.
 */
import { spawn } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment for a child npm: without the variables the `npm test` around us set for its own project. */
export function childEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|userconfig|globalconfig|registry)$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) || keep.test(name)),
  );
}

/** Runs a command to its end; never rejects, so a failure shows its output in the assertion. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: childEnv(), timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function expectSuccess(result: Run): void {
  expect(result.code, `exit code; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
}

/** The project as a fresh clone has it: sources, no build output, the installed node_modules linked. */
function copyProject(target: string): void {
  const skip = new Set(['node_modules', 'dist', '.git', 'reports', 'results']);
  cpSync(ROOT, target, {
    recursive: true,
    // The root itself is always copied: a checkout may be named `reports` too (a git worktree).
    filter: (source) => source === ROOT || (!skip.has(basename(source)) && !source.endsWith('.log')),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(target, 'node_modules'), 'dir');
}

export interface Packed {
  /** The tarball's path, in `work`. */
  tarball: string;
  files: Array<{ path: string }>;
  /** The tarball's size in bytes. */
  size: number;
}

/**
 * Packs a copy of the project (`npm pack` runs `prepack`, which builds) into `work`.
 *
 * @example const { tarball } = await packProject(mkdtempSync(join(tmpdir(), 'petstore-pack-')));
 */
export async function packProject(work: string): Promise<Packed> {
  const source = join(work, 'source');
  copyProject(source);
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], source, 180_000);
  expectSuccess(pack);
  // npm prints the build's own output before the JSON.
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
    size: number;
  }>;
  if (!info) throw new Error(`npm pack printed no file list:\n${pack.stdout}`);
  return { tarball: join(work, info.filename), files: info.files, size: info.size };
}

/**
 * Flags for `npm install` in a test: the cache first, no audit. A registry request that stalls is retried
 * after 30 s rather than waiting out npm's 5 minutes (seen once in CI's Node 24 leg: the install hung past
 * the test's limit while it takes seconds here).
 */
export const INSTALL_FLAGS = [
  '--prefer-offline',
  '--no-audit',
  '--no-fund',
  '--fetch-timeout=30000',
  '--fetch-retries=4',
];
