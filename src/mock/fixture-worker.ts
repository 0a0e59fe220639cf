/**
 * Parses and checks one large fixture file off the main thread (`loadFixtureFileAsync`): the server keeps
 * answering, and the parser's garbage dies with this thread's heap instead of staying resident.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildContract } from '../contract/compile.js';
import { loadFixtureFile, type WorkerAnswer } from './fixture-files.js';

const { path, document } = workerData as { path: string; document: Record<string, unknown> };
const loaded = loadFixtureFile(path, buildContract(document));
// A class does not survive the copy between threads: the orders go as their Map.
const answer: WorkerAnswer = loaded.ok
  ? { ok: true, value: { ...loaded.value, orders: loaded.value.orders.orders } }
  : { ok: false, error: { source: loaded.error.source, problems: loaded.error.problems } };
parentPort?.postMessage(answer);
