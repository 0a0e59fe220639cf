/**
 * `petstore mock --watch`: reloads the fixture file when it changes. A save passes through states (an
 * empty file, its first lines) that are refused with their reason, keeping the last good state.
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Contract } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { loadFixtureFileAsync } from './fixture-files.js';
import type { FixtureSet } from './fixtures.js';

export interface FixtureWatchOptions {
  /** The fixture file. */
  path: string;
  /** The fixtures in use now, to compare a new version with. */
  current: () => FixtureSet;
  /** Puts new fixtures in place. */
  apply: (fixtures: FixtureSet) => void;
  /** Told after each reload, good or refused. */
  report: (outcome: Result<FixtureSet, string>) => void;
  /** The contract the fixtures are checked against; default the toolkit's own. */
  contract?: Contract;
  /** Quiet time after the last change event before reading (default 200 ms). */
  debounceMs?: number;
}

/**
 * Why a new version that parses and checks is still not taken: no orders and no keys, where the fixtures
 * in use have some, is what a half-written file looks like (its first lines, or `{}`).
 *
 * @example emptiedProblem(current, next) // 'has no orders and no keys, where the last good version had 14 orders; …'
 */
export function emptiedProblem(current: FixtureSet, next: FixtureSet): string | undefined {
  if (next.orders.orders.size > 0 || next.apiKeys.length > 0) return undefined;
  const orders = current.orders.orders.size;
  const keys = current.apiKeys.length;
  if (orders === 0 && keys === 0) return undefined;
  const had =
    orders > 0 ? `${orders} order${orders === 1 ? '' : 's'}` : `${keys} key${keys === 1 ? '' : 's'}`;
  return `has no orders and no keys, where the last good version had ${had}; if that is what you want, restart the mock`;
}

/**
 * Watches a fixture file; returns the function that stops watching.
 *
 * @example const stop = watchFixtureFile({ path, current: () => mock.fixtures, apply: mock.reload, report })
 */
export function watchFixtureFile(options: FixtureWatchOptions): () => void {
  const { path } = options;
  const debounceMs = options.debounceMs ?? 200;
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
    timer = setTimeout(() => void reload(), debounceMs);
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    watcher.close();
  };
}
