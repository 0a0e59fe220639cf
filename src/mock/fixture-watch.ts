/** `petstore mock --watch`: reloads the fixture file when it changes; a refused one keeps the last good. */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Contract } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { loadFixtureFileAsync } from './fixture-files.js';
import type { FixtureSet } from './fixtures.js';

export interface FixtureWatchOptions {
  path: string;
  /** The fixtures in use now, to compare a new version with. */
  current: () => FixtureSet;
  apply: (fixtures: FixtureSet) => void;
  /** Told after each reload, good or refused. */
  report: (outcome: Result<FixtureSet, string>) => void;
  contract?: Contract;
}

/** Quiet time after the last change event before reading: a save comes as several events. */
const DEBOUNCE_MS = 200;

/** Why a valid version is not taken: no orders and no keys, where the last had some, is a half-saved file. */
function emptiedProblem(current: FixtureSet, next: FixtureSet): string | undefined {
  if (next.orders.orders.size > 0 || next.apiKeys.length > 0) return undefined;
  const orders = current.orders.orders.size;
  const keys = current.apiKeys.length;
  if (orders === 0 && keys === 0) return undefined;
  const had =
    orders > 0 ? `${orders} order${orders === 1 ? '' : 's'}` : `${keys} key${keys === 1 ? '' : 's'}`;
  return `has no orders and no keys, where the last good version had ${had}; if that is what you want, restart the mock`;
}

/** Watches a fixture file; returns the function that stops watching. */
export function watchFixtureFile(options: FixtureWatchOptions): () => void {
  const { path } = options;
  let timer: NodeJS.Timeout | undefined;
  let loading = false;
  let changedWhileLoading = false;
  let stopped = false;

  async function reload(): Promise<void> {
    if (loading) {
      changedWhileLoading = true;
      return;
    }
    loading = true;
    const loaded = await loadFixtureFileAsync(path, options.contract);
    loading = false;
    if (stopped) return;
    if (changedWhileLoading) {
      // A newer version is on disk: judge that one, not the one read meanwhile.
      changedWhileLoading = false;
      void reload();
      return;
    }
    if (!loaded.ok) {
      options.report(fail(loaded.error.message));
      return;
    }
    const problem = emptiedProblem(options.current(), loaded.value);
    if (problem) {
      options.report(fail(`${path}: ${problem}`));
      return;
    }
    options.apply(loaded.value);
    options.report(ok(loaded.value));
  }

  // Watching the folder, not the file, survives editors that save by renaming a new file into place.
  const watcher: FSWatcher = watch(dirname(path), (_event, name) => {
    if (name !== null && name !== basename(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), DEBOUNCE_MS);
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    watcher.close();
  };
}
