/**
 * The Node side of fixtures: where the built-in ones live and reading a fixture file. Parsing the text
 * (`fixture-text.ts`) and checking the data (`fixtures.ts`) run anywhere; this file only adds the file
 * system.
 *
 * A fixture path is read only when it names a regular file of at most {@link MAX_FIXTURE_BYTES}: a FIFO
 * would block the read until someone writes to it, `/dev/zero` (or a symlink to it) never ends, and a
 * huge file would take the memory with it. The file is opened without waiting (O_NONBLOCK) and judged by
 * what was opened, so a path swapped between the check and the read cannot slip through.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Contract, defaultContract } from '../contract/index.js';
import { packageRoot } from '../contract/package-root.js';
import { fail, ok, type Result } from '../result.js';
import { parseFixtureText } from './fixture-text.js';
import { fromTransferable, type TransferableFixtures } from './fixture-transfer.js';
import {
  buildFixtures,
  FIXTURE_DATA_SOURCE,
  type FixtureData,
  FixtureError,
  type FixtureSet,
} from './fixtures.js';
import { OrderBase } from './order-store.js';

export const FIXTURES_DIR = join(packageRoot(), 'fixtures');
export const DEFAULT_FIXTURES_PATH = join(FIXTURES_DIR, 'default.yaml');
export const FIXTURES_SCHEMA_PATH = join(FIXTURES_DIR, 'fixtures.schema.json');

/**
 * The largest fixture file the mock reads: 32 MiB, about 350,000 orders, three times the largest file the
 * benchmark loads. Parsing takes about 60 ms and 15 MB of memory per MiB, so the cap bounds a load at
 * about two seconds and half a gigabyte.
 */
export const MAX_FIXTURE_BYTES = 32 * 1024 * 1024;

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function openProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: no permission';
  return `cannot be read (${code ?? String(error)})`;
}

/** Why a file of this kind and size is not read, or undefined when it may be. */
function shapeProblem(stat: { isFile(): boolean; isDirectory(): boolean; size: number }): string | undefined {
  if (stat.isDirectory()) return 'is a folder, not a file';
  if (!stat.isFile())
    return 'is not a regular file (a pipe, a device or a socket); give a .yaml or .json file';
  if (stat.size > MAX_FIXTURE_BYTES) {
    const mib = (stat.size / 2 ** 20).toFixed(1);
    return `is ${mib} MiB, over the ${MAX_FIXTURE_BYTES / 2 ** 20} MiB a fixture file may be`;
  }
  return undefined;
}

/** Decodes what was read; a file that grew while it was read is refused rather than cut short. */
function decode(bytes: Uint8Array, length: number, size: number): Result<string, string> {
  if (length > size) return fail('changed while it was being read; save it again');
  return ok(new TextDecoder().decode(bytes.subarray(0, length)));
}

/**
 * Reads a fixture file's text at start-up (synchronously: nothing is being served yet).
 *
 * @example readFixtureTextSync('fixtures/default.yaml') // { ok: true, value: '# yaml-language-server…' }
 */
export function readFixtureTextSync(path: string): Result<string, FixtureError> {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return fail(new FixtureError(path, [openProblem(error)]));
  }
  try {
    const stat = fstatSync(fd);
    const problem = shapeProblem(stat);
    if (problem) return fail(new FixtureError(path, [problem]));
    // One byte more than the file's size, to notice a file that grows while it is read.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    const text = decode(buffer, length, stat.size);
    return text.ok ? text : fail(new FixtureError(path, [text.error]));
  } catch (error) {
    return fail(new FixtureError(path, [openProblem(error)]));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a fixture file's text while the mock is serving (`--watch`): every step is asynchronous, so the
 * event loop keeps answering requests while the file is read.
 *
 * @example await readFixtureText('fixtures/default.yaml') // { ok: true, value: '# yaml-language-server…' }
 */
export async function readFixtureText(path: string): Promise<Result<string, FixtureError>> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    return fail(new FixtureError(path, [openProblem(error)]));
  }
  try {
    const stat = await handle.stat();
    const problem = shapeProblem(stat);
    if (problem) return fail(new FixtureError(path, [problem]));
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const text = decode(buffer, length, stat.size);
    return text.ok ? text : fail(new FixtureError(path, [text.error]));
  } catch (error) {
    return fail(new FixtureError(path, [openProblem(error)]));
  } finally {
    await handle.close();
  }
}

/**
 * Reads and checks a fixture file (YAML or JSON; JSON is YAML).
 *
 * @example loadFixtureFile('fixtures/default.yaml') // { ok: true, value: { orders, pets, … } }
 */
export function loadFixtureFile(
  path: string,
  contract: Contract = defaultContract(),
): Result<FixtureSet, FixtureError> {
  const text = readFixtureTextSync(path);
  return text.ok ? parseFixtureText(text.value, path, contract) : text;
}

/**
 * Files above this size are parsed in a worker thread: the server keeps answering meanwhile (`--watch`),
 * and the parser's intermediate objects (several times the file's size) are freed with the worker's heap
 * instead of staying resident in the server. Smaller files parse in a few milliseconds, less than a
 * worker takes to start.
 */
const OFF_THREAD_BYTES = 1024 * 1024;
const WORKER = new URL('./fixture-worker.js', import.meta.url);
/** A file that would need more than this to parse is refused, not allowed to take the server's memory. */
const WORKER_HEAP_MB = 1024;

/** What the worker posts: a FixtureError cannot cross threads as a class, so its two fields do. */
export type WorkerAnswer = Result<TransferableFixtures, { source: string; problems: readonly string[] }>;

function parseInWorker(path: string, contract: Contract): Promise<Result<FixtureSet, FixtureError>> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      // The worker checks the orders against the same document (a --spec draft may change Order).
      workerData: { path, document: contract.document },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.once('message', (answer: WorkerAnswer) => {
      resolve(
        answer.ok
          ? ok(fromTransferable(answer.value, contract))
          : fail(new FixtureError(answer.error.source, answer.error.problems)),
      );
      void worker.terminate();
    });
    worker.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needs more than ${WORKER_HEAP_MB} MB to parse`
          : `cannot be parsed (${error.message})`;
      resolve(fail(new FixtureError(path, [reason])));
    });
    worker.once('exit', () =>
      resolve(fail(new FixtureError(path, ['cannot be parsed (the parser stopped)']))),
    );
  });
}

/**
 * Reads and checks a fixture file without blocking the event loop for long: the reading is asynchronous
 * and a large file is parsed in a worker thread. What `petstore mock` uses, at start and on `--watch`.
 *
 * @example await loadFixtureFileAsync('fixtures/default.yaml') // { ok: true, value: { orders, pets, … } }
 */
export async function loadFixtureFileAsync(
  path: string,
  contract: Contract = defaultContract(),
): Promise<Result<FixtureSet, FixtureError>> {
  const size = await stat(path).then(
    (info) => info.size,
    () => 0,
  );
  // Run from the TypeScript sources (tests), there is no compiled worker: parse here.
  if (size > OFF_THREAD_BYTES && existsSync(fileURLToPath(WORKER))) return parseInWorker(path, contract);
  const text = await readFixtureText(path);
  return text.ok ? parseFixtureText(text.value, path, contract) : text;
}

/**
 * Fixtures from a path, from data given in-process, or already loaded; the built-in ones when none is
 * given.
 */
export function loadFixtures(
  fixtures: string | FixtureData | FixtureSet | undefined,
  contract: Contract = defaultContract(),
): Result<FixtureSet, FixtureError> {
  if (fixtures === undefined) return loadFixtureFile(DEFAULT_FIXTURES_PATH, contract);
  if (typeof fixtures === 'string') return loadFixtureFile(fixtures, contract);
  if (fixtures.orders instanceof OrderBase) return ok(fixtures as FixtureSet);
  return buildFixtures(fixtures, FIXTURE_DATA_SOURCE, contract);
}
