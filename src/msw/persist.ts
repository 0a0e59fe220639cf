/** `persist: inSessionStorage`: the mock's state survives a page reload in the tab's `sessionStorage`. */
import type { MockState } from '../mock/control.js';
import { restoreState, snapshotState } from '../mock/state-snapshot.js';
import { fail } from '../result.js';

/** Characters of saved state at most: far below any browser's sessionStorage quota (about 5 MB). */
export const MAX_PERSISTED_CHARS = 512 * 1024;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** How handlers keep their state across page loads (the `persist` option, {@link inSessionStorage}). */
export type Persist = (key: string, mock: MockState) => { save(): void };

/**
 * The state kept in the tab's `sessionStorage`; a state over the bound, or no `sessionStorage`, stays in memory.
 *
 * @example createHandlers({ fixtures, persist: inSessionStorage })
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
