/** `persist: inSessionStorage`: the mock's state survives a page reload in the tab's `sessionStorage`. */
import type { MockControl, MockState } from '../mock/control.js';
import { restoreState, snapshotState } from '../mock/state-snapshot.js';
import { fail } from '../result.js';

/** Characters of saved state at most: far below any browser's sessionStorage quota (about 5 MB). */
export const MAX_PERSISTED_CHARS = 512 * 1024;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Persistence {
  save(): void;
}

/** How handlers keep their state across page loads (the `persist` option, {@link inSessionStorage}). */
export type Persist = (key: string, mock: MockState) => Persistence;

/**
 * The state kept in the tab's `sessionStorage`: restored from `key` now, saved by `save()`. A state over
 * the bound, or no `sessionStorage` (Node), keeps it in memory, and the console says so once.
 *
 * @example import { inSessionStorage } from 'petstore-contract-toolkit/msw/persist'; createHandlers({ fixtures, persist: inSessionStorage })
 */
export const inSessionStorage: Persist = (key, mock) => {
  const storage = (globalThis as { sessionStorage?: StorageLike }).sessionStorage;
  let warned = false;
  const warnOnce = (message: string) => {
    if (!warned) console.warn(`petstore mock: ${message}`);
    warned = true;
  };
  if (!storage) {
    warnOnce(
      'persist: inSessionStorage needs sessionStorage, which this runtime lacks; the state is kept in memory.',
    );
    return { save() {} };
  }
  const saved = storage.getItem(key);
  if (saved !== null) {
    // A text this module would never have written is refused unread (issue 25: another script may write it).
    const restored =
      saved.length > MAX_PERSISTED_CHARS
        ? fail(`the saved state is over ${MAX_PERSISTED_CHARS} characters`)
        : restoreState(saved, mock);
    if (!restored.ok) warnOnce(`${restored.error}; starting from the fixtures.`);
  }
  return {
    save() {
      const text = snapshotState(mock);
      try {
        if (text.length > MAX_PERSISTED_CHARS) throw new RangeError('too large');
        storage.setItem(key, text);
      } catch {
        storage.removeItem(key);
        warnOnce(
          `the state (${text.length} characters) does not fit in sessionStorage (at most ${MAX_PERSISTED_CHARS}); it is kept in memory, and a reload starts from the fixtures.`,
        );
      }
    },
  };
};

/** The control object, saving the state after each call. */
export function savingControl(control: MockControl, persistence: Persistence): MockControl {
  const methods = Object.entries(control) as Array<[string, (...args: unknown[]) => Promise<unknown>]>;
  const saving = methods.map(([name, run]) => [
    name,
    (...args: unknown[]) => run(...args).finally(persistence.save),
  ]);
  return Object.fromEntries(saving) as unknown as MockControl;
}
