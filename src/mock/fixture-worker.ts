/**
 * Parses and checks one fixture file off the main thread (see `loadFixtureFileAsync`). What it sends back
 * is the checked state as plain data; the parser's intermediate objects die with this thread's heap
 * instead of staying resident in the server's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildContract } from '../contract/compile.js';
import { fail, ok } from '../result.js';
import { readFixtureText, type WorkerAnswer } from './fixture-files.js';
import { parseFixtureText } from './fixture-text.js';
import { toTransferable } from './fixture-transfer.js';

const { path, document } = workerData as { path: string; document: Record<string, unknown> };
const text = await readFixtureText(path);
const loaded = text.ok ? parseFixtureText(text.value, path, buildContract(document)) : text;
const answer: WorkerAnswer = loaded.ok
  ? ok(toTransferable(loaded.value))
  : fail({ source: loaded.error.source, problems: loaded.error.problems });
parentPort?.postMessage(answer);
