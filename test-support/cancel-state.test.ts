/**
 * Cancel checks that need a second observation or a tight race (D2, D16, D23): a stateless server (every
 * cancel 204, the list never changes) and a lost update in a 20 ms window, each against a correct server.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CORRECT_SERVERS } from './servers/correct-servers.js';
import { type Behaviour, behaviour, CORRECT, MOCK_LIKE_READINGS } from './servers/reference-server.js';
import { runSuiteAgainst } from './servers/run-suite.js';

const correct = (name: string): Behaviour => {
  const server = CORRECT_SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`no correct server ${name}`);
  return server.behaviour;
};

/** Answers 204 to every cancel of a listed order and changes nothing (a Prism-like stub). */
const STATELESS = behaviour(MOCK_LIKE_READINGS, {
  async transition(b, order, id) {
    return order ? { status: 204 } : CORRECT.transition(b, order, id);
  },
});

/** Reads a pending order, waits 20 ms, then writes it cancelled: two cancels in that window both win. */
const RACE_20_MS = behaviour(MOCK_LIKE_READINGS, {
  async transition(b, order, id) {
    if (order?.status !== 'pending') return CORRECT.transition(b, order, id);
    await sleep(20);
    order.status = 'cancelled';
    return { status: 204 };
  },
});

async function outcome(server: Behaviour, check: string) {
  const result = await runSuiteAgainst(server, { only: [check] });
  const found = result.checks.find((c) => c.id === check);
  return { outcome: found?.outcome, text: JSON.stringify(found) };
}

describe('cancel.pending-order tells a stateless server from one that keeps cancelled orders listed (D2, D16)', () => {
  it('fails a server whose 204 changes nothing, naming the missing effect', async () => {
    const { outcome: got, text } = await outcome(STATELESS, 'cancel.pending-order');
    expect(got).toBe('FAIL');
    expect(text).toContain('is still listed unchanged after its 204, and a second cancel answered 204 again');
  });

  it.each(['keeps-cancelled-listed', 'mock-like'])('passes the correct server %s', async (name) => {
    expect((await outcome(correct(name), 'cancel.pending-order')).outcome).toBe('PASS');
  });
});

describe('cancel.concurrent catches a 20 ms lost-update window every time (D23)', () => {
  it('10 runs of 10 fail the racing server', async () => {
    const outcomes: Array<string | undefined> = [];
    for (let run = 0; run < 10; run++)
      outcomes.push((await outcome(RACE_20_MS, 'cancel.concurrent')).outcome);
    expect(outcomes).toEqual(Array(10).fill('FAIL'));
  });

  it('passes a correct server', async () => {
    expect((await outcome(correct('mock-like'), 'cancel.concurrent')).outcome).toBe('PASS');
  });
});
