/** `persist: inSessionStorage`: the mock's state survives a page reload in the tab's `sessionStorage`. */
import type { ExactJson } from '../contract/index.js';
import { CONTROL_OPERATIONS, decimalIds, type MockState } from '../mock/control.js';
import { DEFAULT_SESSION, MAX_SESSION_NAME, type Session } from '../mock/sessions.js';
import { fail, ok, type Result } from '../result.js';

/** Characters of saved state at most: far below any browser's sessionStorage quota (about 5 MB). */
export const MAX_PERSISTED_CHARS = 512 * 1024;
const VERSION = 1;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** How handlers keep their state across page loads (the `persist` option, {@link inSessionStorage}). */
export type Persist = (key: string, mock: MockState) => { save(): void };

/** Each session's changed orders (ids as decimal strings) and faults, as the control operations take them. */
interface SavedState {
  version: number;
  delayMs: number;
  sessions: Array<{
    name: string;
    orders: Array<{ id: string } & Record<string, ExactJson>>;
    faults: ExactJson[];
  }>;
}

function snapshot({ sessions, delayMs }: MockState): string {
  const saved = [DEFAULT_SESSION, ...sessions.names()].map((name) => {
    const session = sessions.peek(name) as Session; // the default's orders and faults, whichever log
    const orders = [...session.orders.changes()].map(decimalIds) as SavedState['sessions'][number]['orders'];
    const faults = session.faults
      .list()
      .map(({ id: _id, remaining, ...rule }) => ({ ...rule, times: remaining }));
    return { name, orders, faults: faults as ExactJson[] };
  });
  return JSON.stringify({ version: VERSION, delayMs, sessions: saved } satisfies SavedState);
}

/** Restores through the control operations' checks (issue 25); a refusal resets every session. */
function restore(text: string, mock: MockState): Result<void, string> {
  const { sessions } = mock;
  const refuse = (reason: string) => {
    sessions.resetAll();
    return fail(`the saved state is unusable (${reason})`);
  };
  // A text this module would never have written is refused unread: another script may write it.
  if (text.length > MAX_PERSISTED_CHARS) return refuse(`over ${MAX_PERSISTED_CHARS} characters`);
  try {
    const state = JSON.parse(text) as SavedState;
    if (state?.version !== VERSION || !Array.isArray(state.sessions)) return refuse('another version');
    for (const saved of state.sessions) {
      if (typeof saved.name !== 'string' || saved.name.length > MAX_SESSION_NAME) {
        return refuse(`a session name that is not a string of at most ${MAX_SESSION_NAME} characters`);
      }
      const context = { mock, session: sessions.get(saved.name) };
      for (const { id, ...body } of saved.orders) {
        const put = CONTROL_OPERATIONS.putOrder.run({ ...context, id: String(id), body });
        if (!put.ok) return refuse(`order ${String(id).slice(0, 40)}: ${put.error}`);
      }
      for (const body of saved.faults) {
        const planned = CONTROL_OPERATIONS.addFault.run({ ...context, body });
        if (!planned.ok) return refuse(planned.error);
      }
    }
    const body = { delayMs: state.delayMs };
    const delay = CONTROL_OPERATIONS.putDelay.run({ mock, session: sessions.get(undefined), body });
    if (!delay.ok) return refuse(delay.error);
  } catch {
    return refuse('not a state this version saved');
  }
  return ok(undefined);
}

/** State kept in the tab's `sessionStorage` (else memory): `createHandlers({ persist: inSessionStorage })` */
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
  const restored = saved === null ? ok(undefined) : restore(saved, mock);
  if (!restored.ok) warnOnce(`${restored.error}; starting from the fixtures.`);
  return {
    save() {
      const text = snapshot(mock);
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
