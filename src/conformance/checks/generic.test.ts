/**
 * The generic checks follow the run's contract: a draft with a new operation (getInventory) and a new
 * bounded parameter (listOrders `limit`) gets checks for both with no check code naming either, and each
 * catches the one fault of a server built for that draft.
 */
import { describe, expect, it } from 'vitest';
import { inventoryDraft } from '../../../test-support/contracts/inventory-draft.js';
import { v2Draft } from '../../../test-support/contracts/v2-draft.js';
import {
  type InventoryFaults,
  startInventoryServer,
} from '../../../test-support/servers/inventory-server.js';
import { loadContract } from '../../contract/compile.js';
import { type Contract, defaultContract } from '../../contract/index.js';
import { renderPretty } from '../../judge/report/pretty.js';
import { createMock } from '../../mock/index.js';
import { runConformance } from '../runner.js';
import { genericChecks, invalidValues } from './generic.js';

const KEY = 'inventory-key-3f9a';
const AUTH_MISSING = 'generic.getInventory.auth-missing';
const AUTH_WRONG = 'generic.getInventory.auth-wrong-key';
const LIMIT = 'generic.listOrders.param.limit.invalid';

function contractOf(document: Record<string, unknown>): Contract {
  const loaded = loadContract(document);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

const draft = contractOf(inventoryDraft());

/** The inventory draft with a bounded query parameter on the one operation that changes data. */
function draftWithCancelReason(): Contract {
  const document = inventoryDraft() as { paths: Record<string, Record<string, { parameters: unknown[] }>> };
  const cancel = document.paths['/store/orders/{orderId}']?.delete;
  if (!cancel) throw new Error('the draft has no cancelOrder');
  cancel.parameters.push({ name: 'reason', in: 'query', schema: { type: 'string', enum: ['duplicate'] } });
  return contractOf(document);
}

describe('genericChecks', () => {
  it.each([
    {
      name: 'the built-in contract gets none: the hand-written auth checks cover its operations and it declares no bounded query parameter',
      contract: defaultContract(),
      want: [],
    },
    {
      name: 'the inventory draft gets auth checks for its new operation and a check of the new limit',
      contract: draft,
      want: [LIMIT, AUTH_MISSING, AUTH_WRONG],
    },
    {
      name: 'a bounded parameter of cancelOrder gets no check: a request with the key could cancel an order (D19)',
      contract: draftWithCancelReason(),
      want: [LIMIT, AUTH_MISSING, AUTH_WRONG],
    },
  ])('$name', ({ contract, want }) => {
    expect(genericChecks(contract).map((check) => check.id)).toEqual(want);
  });

  it('gives an unsafe operation without path parameters auth checks that run only with --destructive (D19)', () => {
    const document = inventoryDraft() as { paths: Record<string, Record<string, unknown>> };
    const orders = document.paths['/store/orders'];
    if (!orders) throw new Error('the draft has no /store/orders');
    orders.post = {
      operationId: 'placeOrder',
      security: [{ bearerAuth: [] }],
      responses: { '401': { $ref: '#/components/responses/Unauthorized' } },
    };
    const placing = genericChecks(contractOf(document)).filter((c) => c.operationId === 'placeOrder');
    expect(placing.map((c) => [c.id, c.needs?.destructive])).toEqual([
      ['generic.placeOrder.auth-missing', true],
      ['generic.placeOrder.auth-wrong-key', true],
    ]);
  });

  it('derives the invalid limits from the schema: not an integer, below the minimum, above the maximum', () => {
    const limit = draft.operation('listOrders').parameters.find((p) => p.name === 'limit');
    if (!limit) throw new Error('the draft has no limit');
    expect(invalidValues(draft, 'listOrders', limit)).toEqual(['abc', '1.5', '0', '101']);
  });
});

describe('the generic checks against a server written for the inventory draft', () => {
  it.each<{ name: string; faults: InventoryFaults; want: Record<string, string> }>([
    {
      name: 'a correct server passes every generic check',
      faults: {},
      want: { [LIMIT]: 'PASS', [AUTH_MISSING]: 'PASS', [AUTH_WRONG]: 'PASS' },
    },
    {
      name: 'an inventory served without a key fails both auth checks',
      faults: { inventoryWithoutKey: true },
      want: { [LIMIT]: 'PASS', [AUTH_MISSING]: 'FAIL', [AUTH_WRONG]: 'FAIL' },
    },
    {
      name: 'a 500 for limit=0 fails the limit check',
      faults: { limitZeroCrashes: true },
      want: { [LIMIT]: 'FAIL', [AUTH_MISSING]: 'PASS', [AUTH_WRONG]: 'PASS' },
    },
    {
      name: 'limit=abc accepted with 200 is a warning (D21)',
      faults: { limitTextAccepted: true },
      want: { [LIMIT]: 'WARN', [AUTH_MISSING]: 'PASS', [AUTH_WRONG]: 'PASS' },
    },
  ])('$name', async ({ faults, want }) => {
    const target = await startInventoryServer(KEY, faults);
    try {
      const result = await runConformance({
        contract: draft,
        baseUrl: target.baseUrl,
        apiKey: KEY,
        only: ['generic'],
        liveProbeMs: 0,
        timeoutMs: 5_000,
      });
      const outcomes = Object.fromEntries(result.checks.map((check) => [check.id, check.outcome]));
      expect(outcomes).toEqual(want);
      expect(result.outcome).toBe(Object.values(want).includes('FAIL') ? 'fail' : 'pass');
    } finally {
      await target.close();
    }
  });

  it('names the invalid value a server accepted, under the check id in the report', async () => {
    const target = await startInventoryServer(KEY, { limitTextAccepted: true });
    try {
      const result = await runConformance({
        contract: draft,
        baseUrl: target.baseUrl,
        apiKey: KEY,
        only: [LIMIT],
        liveProbeMs: 0,
      });
      expect(result.checks[0]?.message).toContain('accepted the invalid value "abc" with 200');
      expect(renderPretty(result, { color: false })).toMatch(
        /WARN {2}generic\.listOrders\.param\.limit\.invalid +listOrders refuses an invalid query parameter `limit` \(§2, D21\)/,
      );
    } finally {
      await target.close();
    }
  });
});

describe('the generic checks against the mock serving the v2 draft', () => {
  it('passes the limit check: the mock refuses each invalid limit with a 400 Error', async () => {
    const contract = contractOf(v2Draft());
    const mock = await createMock({ contract, apiKeys: [KEY] });
    const { baseUrl } = await mock.listen({ port: 0 });
    try {
      const result = await runConformance({
        contract,
        baseUrl,
        apiKey: KEY,
        only: ['generic'],
        liveProbeMs: 0,
      });
      expect(result.checks.map((check) => [check.id, check.outcome])).toEqual([[LIMIT, 'PASS']]);
    } finally {
      await mock.close();
    }
  });
});
