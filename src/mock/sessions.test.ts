import { describe, expect, it } from 'vitest';
import { loadFixtures } from './fixture-files.js';
import { Sessions } from './sessions.js';

function fixtures() {
  const loaded = loadFixtures({ orders: [{ id: 1, status: 'pending' }] });
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

describe('sessions', () => {
  it('gives the default session to a request without a name', () => {
    const sessions = new Sessions(fixtures());
    expect(sessions.get(undefined)).toBe(sessions.get('default'));
    expect(sessions.names().length).toBe(0);
  });

  it('seeds a new named session from the fixtures, apart from the others', () => {
    const sessions = new Sessions(fixtures());
    sessions.get('a').orders.apply(1n, 'cancelOrder');
    expect(sessions.get('b').orders.get(1n)?.state).toBe('pending');
    expect(sessions.get(undefined).orders.get(1n)?.state).toBe('pending');
    expect(sessions.get('a').orders.get(1n)?.state).toBe('cancelled');
  });

  it('keeps at most maxSessions named sessions, dropping the least recently used', () => {
    const sessions = new Sessions(fixtures(), { maxSessions: 3, logSize: 5 });
    for (let i = 0; i < 1000; i++) sessions.get(`s${i}`);
    expect(sessions.names().length).toBe(3);
    sessions.get('s997'); // touch: now the most recent
    sessions.get('new');
    expect(sessions.peek('s997')).toBeDefined();
    expect(sessions.peek('s998')).toBeUndefined();
    expect(sessions.names().length).toBe(3);
  });

  it('resets one session without touching another', () => {
    const sessions = new Sessions(fixtures());
    sessions.get('a').orders.apply(1n, 'cancelOrder');
    sessions.get('b').orders.apply(1n, 'cancelOrder');
    sessions.reset('a');
    expect(sessions.get('a').orders.get(1n)?.state).toBe('pending');
    expect(sessions.get('b').orders.get(1n)?.state).toBe('cancelled');
  });

  it('resets everything to new fixtures', () => {
    const sessions = new Sessions(fixtures());
    sessions.get('a');
    const next = loadFixtures({ orders: [{ id: 2, status: 'shipped' }] });
    if (!next.ok) throw next.error;
    sessions.resetAll(next.value);
    expect(sessions.names().length).toBe(0);
    expect(sessions.get(undefined).orders.get(2n)?.state).toBe('shipped');
  });

  it('does not create a session by peeking', () => {
    const sessions = new Sessions(fixtures());
    expect(sessions.peek('ghost')).toBeUndefined();
    expect(sessions.names().length).toBe(0);
  });
});
