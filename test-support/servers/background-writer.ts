/**
 * A correct server with other clients at work (D16): a timer that, every `everyMs`, moves one order the
 * suite is not given a step along, as a shipping job and a tester would on a live staging (pending →
 * shipped → gone (cancelled) → pending again → …), and edits the quantity of another, as a shop front would.
 * The edit makes every tick visible: two reads of the list with a tick between them always differ, however
 * many ticks fell between them.
 */
import { type Behaviour, createStore, type Store, seedOrders, startTarget } from './reference-server.js';
import type { RunningTarget } from './serve.js';

/** The orders the writer moves and edits: not among the proof ids, and no lenient reading of a probe lands on them. */
export const WRITER_ORDER = 800n;
export const EDITED_ORDER = 801n;

export interface WrittenTarget extends RunningTarget {
  /** How many changes the writer made so far. */
  writes(): number;
}

/**
 * Starts the target with the writer already running; `close` stops both.
 *
 * @example const target = await withBackgroundWriter(CORRECT_SERVERS[0].behaviour, { everyMs: 20 })
 */
export async function withBackgroundWriter(
  b: Behaviour,
  options: { everyMs: number },
  store: Store = createStore([
    ...seedOrders(),
    { id: WRITER_ORDER, petId: 10n, quantity: 1, status: 'pending' },
    { id: EDITED_ORDER, petId: 10n, quantity: 1, status: 'pending' },
  ]),
): Promise<WrittenTarget> {
  const order = store.find(WRITER_ORDER);
  const edited = store.find(EDITED_ORDER);
  if (!order || !edited)
    throw new Error(`the store has no orders ${WRITER_ORDER} and ${EDITED_ORDER} for the writer`);
  let writes = 0;
  const timer = setInterval(() => {
    order.status =
      order.status === 'pending' ? 'shipped' : order.status === 'shipped' ? 'cancelled' : 'pending';
    edited.quantity += 1;
    writes += 1;
  }, options.everyMs);
  const target = await startTarget(b, store);
  return {
    ...target,
    writes: () => writes,
    close: async () => {
      clearInterval(timer);
      await target.close();
    },
  };
}
