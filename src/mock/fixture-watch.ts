/** `petstore mock --watch`: reloads the fixture file when it changes; a refused one keeps the last good. */
import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Contract } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { loadFixtureFileAsync } from './fixture-files.js';
import type { FixtureSet } from './fixtures.js';

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

/** Reloads `mock` from the file at each change, telling `report` how it went; returns the stop function. */
export function watchFixtureFile(
  path: string,
  contract: Contract,
  mock: { readonly fixtures: FixtureSet; reload(fixtures: FixtureSet): unknown },
  report: (outcome: Result<FixtureSet, string>) => void,
): () => void {
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
    const loaded = await loadFixtureFileAsync(path, contract);
    loading = false;
    if (stopped) return;
    if (changedWhileLoading) {
      // A newer version is on disk: judge that one, not the one read meanwhile.
      changedWhileLoading = false;
      return reload();
    }
    if (!loaded.ok) return report(fail(loaded.error.message));
    const problem = emptiedProblem(mock.fixtures, loaded.value);
    if (problem) return report(fail(`${path}: ${problem}`));
    mock.reload(loaded.value);
    report(ok(loaded.value));
  }

  // Watching the folder, not the file, survives editors that save by renaming a new file into place.
  const watcher = watch(dirname(path), (_event, name) => {
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
