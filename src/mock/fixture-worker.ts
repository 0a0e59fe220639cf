/** Parses a large fixture file off the main thread: answers go on, and the garbage dies with this heap. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildContract } from '../contract/compile.js';
import { loadFixtureFile, type WorkerAnswer } from './fixture-files.js';

const { path, document } = workerData as { path: string; document: Record<string, unknown> };
const loaded = loadFixtureFile(path, buildContract(document));
const answer: WorkerAnswer = loaded.ok
  ? { ok: true, value: { ...loaded.value, orders: loaded.value.orders.orders } }
  : { ok: false, error: loaded.error.problems };
parentPort?.postMessage(answer);
