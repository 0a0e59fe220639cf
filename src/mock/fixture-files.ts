/** Fixture files, opened O_NONBLOCK (a FIFO cannot block) and judged by what was opened (no swap race). */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Contract, defaultContract, stateTable } from '../contract/index.js';
import { packageRoot } from '../contract/package-root.js';
import { fail, ok, type Result } from '../result.js';
import { parseFixtureText } from './fixture-text.js';
import { buildFixtures, type FixtureData, FixtureError, type FixtureSet } from './fixtures.js';
import { OrderBase, type StoredOrder } from './order-store.js';

export const DEFAULT_FIXTURES_PATH = join(packageRoot(), 'fixtures', 'default.yaml');

/** The largest fixture file the mock reads: 32 MiB, about 350,000 orders, bounds a load's time and memory. */
export const MAX_FIXTURE_BYTES = 32 * 1024 * 1024;

const OPEN_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, not a file',
  EACCES: 'cannot be read: no permission',
  EPERM: 'cannot be read: no permission',
};

function readFixtureText(path: string): Result<string, string> {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return fail(OPEN_PROBLEMS.EISDIR as string);
    if (!stat.isFile())
      return fail('is not a regular file (a pipe, a device or a socket); give a .yaml or .json file');
    if (stat.size > MAX_FIXTURE_BYTES) {
      const mib = (stat.size / 2 ** 20).toFixed(1);
      return fail(`is ${mib} MiB, over the ${MAX_FIXTURE_BYTES / 2 ** 20} MiB a fixture file may be`);
    }
    // One byte more than the file's size, to notice a file that grows while it is read.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > stat.size) return fail('changed while it was being read; save it again');
    return ok(new TextDecoder().decode(buffer.subarray(0, length)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(OPEN_PROBLEMS[code ?? ''] ?? `cannot be read (${code ?? String(error)})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads and checks a fixture file (YAML or JSON; JSON is YAML). */
export function loadFixtureFile(path: string, contract = defaultContract()) {
  const text = readFixtureText(path);
  return text.ok ? parseFixtureText(text.value, path, contract) : fail(new FixtureError(path, [text.error]));
}

/** Files above this size are parsed in a worker: smaller ones parse faster than a worker starts. */
const OFF_THREAD_BYTES = 1024 * 1024;
const WORKER = new URL('./fixture-worker.js', import.meta.url);
/** A file that needs more to parse is refused rather than take the server's memory. */
const WORKER_HEAP_MB = 1024;

/** What the worker posts: the fixtures with their orders as a Map (a class does not cross), or the problems. */
export type WorkerAnswer = Result<
  Omit<FixtureSet, 'orders'> & { orders: ReadonlyMap<bigint, StoredOrder> },
  readonly string[]
>;

/** A large file is parsed in a worker: 100,000 orders on the main thread break the 250 MB floor. */
export async function loadFixtureFileAsync(path: string, contract = defaultContract()) {
  const size = (await stat(path).catch(() => undefined))?.size ?? 0;
  // Run from the TypeScript sources (tests), there is no compiled worker: parse here.
  if (size <= OFF_THREAD_BYTES || !existsSync(fileURLToPath(WORKER))) return loadFixtureFile(path, contract);
  return new Promise<Result<FixtureSet, FixtureError>>((resolve) => {
    const worker = new Worker(WORKER, {
      workerData: { path, document: contract.document },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const refuse = (reason: string) => resolve(fail(new FixtureError(path, [reason])));
    worker.once('message', (answer: WorkerAnswer) => {
      resolve(
        answer.ok
          ? ok({ ...answer.value, orders: new OrderBase(answer.value.orders, stateTable(contract)) })
          : fail(new FixtureError(path, answer.error)),
      );
      void worker.terminate();
    });
    worker.once('error', (error: NodeJS.ErrnoException) =>
      refuse(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needs more than ${WORKER_HEAP_MB} MB to parse`
          : `cannot be parsed (${error.message})`,
      ),
    );
    worker.once('exit', () => refuse('cannot be parsed (the parser stopped)'));
  });
}

/** Fixtures from a path, from data, or already loaded; the built-in ones when none is given. */
export function loadFixtures(
  fixtures: string | FixtureData | FixtureSet | undefined,
  contract: Contract = defaultContract(),
): Result<FixtureSet, FixtureError> {
  if (fixtures === undefined) return loadFixtureFile(DEFAULT_FIXTURES_PATH, contract);
  if (typeof fixtures === 'string') return loadFixtureFile(fixtures, contract);
  if (fixtures.orders instanceof OrderBase) return ok(fixtures as FixtureSet);
  return buildFixtures(fixtures, contract);
}
