/**
 * Servers for a double-clicked cancel (issue 17, item 7): two DELETEs of one pending order in flight at
 * once. The winner commits the cancel, then its 204 is held until the loser has been answered (404 or
 * 409, the server's D2 reading) and 40 ms more, so the loser's answer always arrives first, as it did in
 * the QA run. And a server that refuses a pending order once, then cancels it: the refusal overlaps no
 * 204, so it is still a finding.
 */
import {
  type Behaviour,
  behaviour,
  CORRECT,
  MOCK_LIKE_READINGS,
  type Reply,
} from '../servers/reference-server.js';

/** How long the winner's answer waits after the loser's, and the most it waits for a loser at all. */
const AFTER_LOSER_MS = 40;
const MAX_WAIT_MS = 2_000;

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A correct server whose winning cancel answers only after the losing one of the same order. */
export function doubleClickServer(recancel: 404 | 409): Behaviour {
  const losers = new Map<bigint, () => void>();
  return behaviour(
    { ...MOCK_LIKE_READINGS, recancel },
    {
      async transition(b, order, id): Promise<Reply> {
        if (order?.status !== 'pending') {
          const reply = await CORRECT.transition(b, order, id);
          losers.get(id)?.();
          return reply;
        }
        order.status = 'cancelled';
        const loserAnswered = new Promise<void>((done) => losers.set(id, done));
        await Promise.race([loserAnswered, pause(MAX_WAIT_MS)]);
        losers.delete(id);
        await pause(AFTER_LOSER_MS);
        return { status: 204 };
      },
    },
  );
}

/** Refuses the first cancel of each pending order with `status`, as if it were shipped or unknown. */
export function refusesOnceServer(status: 404 | 409): Behaviour {
  const refused = new Set<bigint>();
  return behaviour(MOCK_LIKE_READINGS, {
    async transition(b, order, id) {
      if (order?.status === 'pending' && !refused.has(id)) {
        refused.add(id);
        return status === 409
          ? CORRECT.error(b, 409, 'order_already_shipped', `Order ${id} has shipped.`)
          : CORRECT.error(b, 404, 'order_not_found', `No order has id ${id}.`);
      }
      return CORRECT.transition(b, order, id);
    },
  });
}
