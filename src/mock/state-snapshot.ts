/** A mock's changeable state as JSON text and back (MSW's `persist`): order changes, faults, the delay. */
import type { ExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { CONTROL_OPERATIONS, decimalIds, type MockState } from './control.js';
import type { FaultSpec } from './faults.js';
import { DEFAULT_SESSION, MAX_SESSION_NAME, type Session } from './sessions.js';

const VERSION = 1;

/** Each session's changed orders and its faults, as the control operations take them. */
interface SavedState {
  version: number;
  delayMs: number;
  sessions: Array<{ name: string; orders: Array<{ id: string }>; faults: FaultSpec[] }>;
}

/** The state as JSON text, ids as decimal strings. */
export function snapshotState({ sessions, delayMs }: MockState): string {
  const saved = [DEFAULT_SESSION, ...sessions.names()].map((name) => {
    const session = sessions.peek(name) as Session; // the default's orders and faults, whichever log
    const orders = [...session.orders.changes()].map(decimalIds) as Array<{ id: string }>;
    const faults = session.faults
      .list()
      .map(({ id: _id, remaining, ...rule }) => ({ ...rule, times: remaining }));
    return { name, orders, faults };
  });
  return JSON.stringify({ version: VERSION, delayMs, sessions: saved } satisfies SavedState);
}

/** Restores through the control operations' checks (issue 25); a refusal resets every session. */
export function restoreState(text: string, mock: MockState): Result<void, string> {
  const { sessions } = mock;
  const refuse = (reason: string) => {
    sessions.resetAll();
    return fail(`the saved state is unusable (${reason})`);
  };
  try {
    const state = JSON.parse(text) as SavedState;
    if (state?.version !== VERSION || !Array.isArray(state.sessions)) return refuse('another version');
    for (const saved of state.sessions) {
      if (typeof saved.name !== 'string' || saved.name.length > MAX_SESSION_NAME) {
        return refuse(`a session name that is not a string of at most ${MAX_SESSION_NAME} characters`);
      }
      const context = { mock, session: sessions.get(saved.name) };
      for (const { id, ...body } of saved.orders as unknown as Array<
        { id: string } & Record<string, ExactJson>
      >) {
        const put = CONTROL_OPERATIONS.putOrder.run({ ...context, id: String(id), body });
        if (!put.ok) return refuse(`order ${String(id).slice(0, 40)}: ${put.error}`);
      }
      for (const fault of saved.faults) {
        const planned = CONTROL_OPERATIONS.addFault.run({ ...context, body: fault as unknown as ExactJson });
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
