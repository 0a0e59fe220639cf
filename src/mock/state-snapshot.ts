/** A mock's changeable state as JSON text and back (MSW's `persist`): order changes, faults, the delay. */
import type { ExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { CONTROL_OPERATIONS, decimalIds, type MockState } from './control.js';
import type { FaultSpec } from './faults.js';
import { DEFAULT_SESSION, MAX_SESSION_NAME } from './sessions.js';

const VERSION = 1;

/** Each session's changed orders (ids as decimal strings) and its faults, as the control operations take them. */
interface SavedState {
  version: number;
  delayMs: number;
  sessions: Array<{ name: string; orders: Array<{ id: string }>; faults: FaultSpec[] }>;
}

/** The state as JSON text, ids as decimal strings. */
export function snapshotState(mock: MockState): string {
  const { sessions } = mock;
  const names = [DEFAULT_SESSION, ...sessions.names()];
  const state: SavedState = {
    version: VERSION,
    delayMs: mock.delayMs,
    sessions: names.flatMap((name) => {
      const session = name === DEFAULT_SESSION ? sessions.get(undefined) : sessions.peek(name);
      if (!session) return [];
      const faults = session.faults.list().map(({ id: _id, remaining, ...rule }) => ({
        ...rule,
        times: remaining,
      }));
      return [
        { name, orders: [...session.orders.changes()].map(decimalIds) as Array<{ id: string }>, faults },
      ];
    }),
  };
  return JSON.stringify(state);
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
      for (const { id, ...order } of saved.orders) {
        const body = order as unknown as ExactJson;
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
