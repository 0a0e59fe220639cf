/**
 * The document's `x-petstore-order-states` table drives the mock, the suite and the proxy together: a copy
 * of the document whose shipped → cancel row answers 410 instead of 409 changes what each expects.
 */
import { describe, expect, it } from 'vitest';
import { buildContract } from '../src/contract/compile.js';
import { type Contract, defaultContract, stateTable } from '../src/contract/index.js';
import { throughProxy } from './proxy/scripted-traffic.js';
import { type Behaviour, behaviour, CORRECT, MOCK_LIKE_READINGS } from './servers/reference-server.js';
import { runSuiteAgainst } from './servers/run-suite.js';

const contract = defaultContract();

type Json = Record<string, unknown>;

/** The toolkit's document with shipped orders refused by 410 Gone, documented as the 409 is. */
function refusedWith410(): Contract {
  const document = structuredClone(contract.document) as Json;
  const table = document['x-petstore-order-states'] as { transitions: Array<Json> };
  for (const row of table.transitions) if (row.from === 'shipped') row.status = 410;
  const paths = document.paths as Record<string, Record<string, { responses: Json }>>;
  const cancel = paths['/store/orders/{orderId}']?.delete;
  if (!cancel) throw new Error('the document has no cancelOrder');
  cancel.responses['410'] = cancel.responses['409'];
  return buildContract(document);
}

/** A server that refuses shipped orders with `status`, and with `retryCancels` cancels one on a second try. */
function shippedRefusedWith(status: number, retryCancels = false): Behaviour {
  const refused = new Set<bigint>();
  return behaviour(MOCK_LIKE_READINGS, {
    async transition(b, order, id) {
      if (order?.status !== 'shipped') return CORRECT.transition(b, order, id);
      if (retryCancels && refused.has(id)) {
        order.status = 'cancelled';
        return { status: 204 };
      }
      refused.add(id);
      return CORRECT.error(b, status, 'order_already_shipped', `Order ${id} has shipped.`);
    },
  });
}

const SHIPPED_CHECKS = ['cancel.shipped-order', 'cancel.shipped-order.again'];

describe('a changed state table changes the mock, the suite and the proxy together', () => {
  const altered = refusedWith410();

  it('the mock reads the row it answers a shipped cancel with from the table', () => {
    expect(stateTable(altered).transition('shipped', 'cancelOrder')?.status).toBe(410);
    expect(stateTable(contract).transition('shipped', 'cancelOrder')?.status).toBe(409);
  });

  const SUITE_CASES: Array<{ name: string; server: Behaviour; with: Contract; want: string[] }> = [
    {
      name: 'a 410 server passes under the 410 table',
      server: shippedRefusedWith(410),
      with: altered,
      want: ['PASS', 'PASS'],
    },
    {
      name: 'a 409 server fails under the 410 table',
      server: shippedRefusedWith(409),
      with: altered,
      want: ['FAIL', 'FAIL'],
    },
    {
      name: 'a 410 server fails under the built-in table',
      server: shippedRefusedWith(410),
      with: contract,
      want: ['FAIL', 'FAIL'],
    },
    {
      name: 'a 410 server that cancels on a retry fails the retry check under the 410 table',
      server: shippedRefusedWith(410, true),
      with: altered,
      want: ['PASS', 'FAIL'],
    },
  ];
  it.each(SUITE_CASES.map((c) => [c.name, c] as const))('the suite: %s', async (_name, c) => {
    const result = await runSuiteAgainst(c.server, { contract: c.with, only: SHIPPED_CHECKS });
    expect(SHIPPED_CHECKS.map((id) => result.checks.find((check) => check.id === id)?.outcome)).toEqual(
      c.want,
    );
  });

  it('the proxy: a 204 after a 410 is a reversal under the 410 table, and not under the built-in one', async () => {
    const rules = async (with_: Contract) =>
      (await throughProxy(shippedRefusedWith(410, true), { contract: with_ })).findings
        .filter((f) => f.rule.startsWith('state.'))
        .map((f) => f.rule);
    expect(await rules(altered)).toContain('state.cancel-after-refusal');
    expect(await rules(contract)).not.toContain('state.cancel-after-refusal');
  });
});
