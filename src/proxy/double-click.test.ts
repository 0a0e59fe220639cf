/**
 * A double-clicked cancel through the proxy (issue 17, item 7): two DELETEs of one pending order in
 * flight at once. The loser's 404 or 409 that overlaps the winner's 204 is the server saying "already
 * done", whichever answer arrives first: no finding. A refusal that overlaps no 204 still is one, and two
 * 204s are still a second cancel.
 */
import { describe, expect, it } from 'vitest';
import { doubleClickServer, refusesOnceServer } from '../../test-support/proxy/double-click.js';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { type Behaviour, startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { createProxy } from './index.js';

const recancel204 = BROKEN_SERVERS.find((s) => s.name === 'recancel-204')?.behaviour as Behaviour;

interface Run {
  statuses: number[];
  /** The server's findings, `level rule`, in order. */
  findings: string[];
}

/** Lists, cancels order 3 twice (together or one after the other), lists again: all through a proxy. */
async function doubleClick(server: Behaviour, together: boolean): Promise<Run> {
  const target = await startTarget(server);
  const proxy = createProxy({ upstream: target.baseUrl });
  try {
    const { baseUrl } = await proxy.listen({ port: 0 });
    const send = async (method: string, path: string) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${TARGET_KEY}` },
      });
      await response.arrayBuffer();
      return response.status;
    };
    await send('GET', '/store/orders');
    const cancel = () => send('DELETE', '/store/orders/3');
    const statuses = together ? await Promise.all([cancel(), cancel()]) : [await cancel(), await cancel()];
    await send('GET', '/store/orders');
    await proxy.close();
    const findings = proxy
      .findings()
      .filter((f) => f.party === 'server')
      .map((f) => `${f.level} ${f.rule}`);
    return { statuses: statuses.sort(), findings };
  } finally {
    await proxy.close();
    await target.close();
  }
}

const CASES: Array<{ name: string; server: Behaviour; together: boolean; want: Run }> = [
  {
    name: 'a loser answered 404 before the winner’s 204 is no finding',
    server: doubleClickServer(404),
    together: true,
    want: { statuses: [204, 404], findings: [] },
  },
  {
    name: 'a loser answered 409 before the winner’s 204 is no finding',
    server: doubleClickServer(409),
    together: true,
    want: { statuses: [204, 409], findings: [] },
  },
  {
    name: 'two overlapping 204s are still a second cancel',
    server: recancel204,
    together: true,
    want: { statuses: [204, 204], findings: ['failure state.second-204'] },
  },
  {
    name: 'a 409 that overlaps no 204 still warns, and the later 204 still fails',
    server: refusesOnceServer(409),
    together: false,
    want: {
      statuses: [204, 409],
      findings: ['warning state.409-on-pending', 'failure state.cancel-after-refusal'],
    },
  },
  {
    name: 'a 404 that overlaps no 204 still warns',
    server: refusesOnceServer(404),
    together: false,
    want: { statuses: [204, 404], findings: ['warning state.404-on-listed'] },
  },
];

describe('a double-clicked cancel through the proxy', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { server, together, want }) => {
    expect(await doubleClick(server, together)).toEqual(want);
  });

  it('answers the loser first on the double-click server, as the QA run saw', async () => {
    const target = await startTarget(doubleClickServer(404));
    try {
      const order: number[] = [];
      const cancel = () =>
        fetch(`${target.baseUrl}/store/orders/3`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${TARGET_KEY}` },
        }).then((r) => order.push(r.status));
      await Promise.all([cancel(), cancel()]);
      expect(order).toEqual([404, 204]);
    } finally {
      await target.close();
    }
  });
});
