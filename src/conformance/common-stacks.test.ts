/**
 * Issue 22: correct servers built the way common stacks build them get no failure, and the bugs next to
 * their readings are still caught. Each run selects only the checks the reading reaches, so it takes a
 * second or two.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  PETS_GONE,
  REFUSES_UNDECLARED_QUERY,
  SAME_INTEGER_IDS,
  shipsOrderMidRun,
} from '../../test-support/servers/common-stacks.js';
import { behaviour, CORRECT, MOCK_LIKE_READINGS } from '../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import type { ConformanceResult } from '../judge/types.js';

const check = (result: ConformanceResult, id: string) => result.checks.find((c) => c.id === id);
const failures = (result: ConformanceResult) =>
  result.checks.filter((c) => c.outcome === 'FAIL').map((c) => `${c.id}: ${c.message}`);

describe('D9: a malformed id read as the same integer in another notation is a warning', () => {
  it('read-only: 02, 2.0, 0x2 and " 2" answered 409 as shipped order 2 warn; 2abc is refused', async () => {
    const result = await runSuiteAgainst(SAME_INTEGER_IDS, {
      destructive: false,
      shippedOrders: ['2'],
      only: ['cancel.shipped-order.malformed-spellings'],
      fuzzRequests: 0,
    });
    expect(failures(result)).toEqual([]);
    expect(result.outcome).toBe('pass');
    const spellings = check(result, 'cancel.shipped-order.malformed-spellings');
    expect(spellings?.outcome).toBe('WARN');
    expect(spellings?.findings.map((f) => f.request?.url.split('/store/orders/')[1])).toEqual([
      '2.0',
      '02',
      '%202',
      '0x2',
    ]);
    expect(spellings?.message).toContain(
      'DELETE /store/orders/2.0 answered 409: the server read "2.0" as shipped order 2, the same integer in another notation',
    );
  });

  it('destructive: 7e0 and 0x7 cancelling pending order 7 warn, and no other order is blamed', async () => {
    const result = await runSuiteAgainst(SAME_INTEGER_IDS, {
      only: ['cancel.malformed-id'],
      fuzzRequests: 0,
    });
    expect(failures(result)).toEqual([]);
    expect(result.outcome).toBe('pass');
    expect(check(result, 'cancel.malformed-id.exponent')?.outcome).toBe('WARN');
    expect(check(result, 'cancel.malformed-id.exponent')?.message).toContain(
      'DELETE /store/orders/7e0 answered 204: the server read "7e0" as pending order 7',
    );
    for (const id of ['decimal', 'trailing-letters', 'uint64-wrap', 'letters']) {
      expect(check(result, `cancel.malformed-id.${id}`)?.outcome, id).toBe('PASS');
    }
  });
});

describe('D21: a query parameter the document does not declare may be refused with any 4xx', () => {
  it('passes a validator that refuses it with 400 and its own body, and names the reading', async () => {
    const result = await runSuiteAgainst(REFUSES_UNDECLARED_QUERY, { destructive: false, only: ['fuzz'] });
    expect(failures(result)).toEqual([]);
    expect(check(result, 'fuzz.invariants')?.notes).toContain(
      "the server's reading: an undeclared query parameter refused with 400 (the server's choice, D21)",
    );
  });

  it('still fails a server that answers it with 500', async () => {
    const crashes = behaviour(MOCK_LIKE_READINGS, {
      async handle(b, request, store) {
        const refused = await REFUSES_UNDECLARED_QUERY.handle(b, request, store);
        return 'status' in refused && refused.status === 400 && request.query !== ''
          ? { status: 500 }
          : refused;
      },
    });
    const result = await runSuiteAgainst(crashes, { destructive: false, only: ['fuzz', 'server-errors'] });
    expect(check(result, 'fuzz.invariants')?.message).toMatch(/^no-5xx: GET .*\?.* answered 500/);
    // The sweep does not see the fuzz phase's answers, and says so instead of contradicting it.
    expect(check(result, 'server-errors.none')?.message).toMatch(
      /response\(s\) of the checks, none 5xx; the fuzz phase's \d+ request\(s\) are judged by fuzz.invariants$/,
    );
  });
});

describe('D11: a retired deprecated read answering 410 Gone passes', () => {
  it('with an HTML body, in the scripted checks and the fuzz phase', async () => {
    const result = await runSuiteAgainst(PETS_GONE, {
      destructive: false,
      only: ['pets', 'auth.getPet', 'errors', 'fuzz'],
    });
    expect(failures(result)).toEqual([]);
    expect(result.checks.filter((c) => c.outcome === 'WARN').map((c) => c.id)).toEqual([]);
    expect(check(result, 'pets.deprecation')?.message).toBe(
      'GET /pets/10 answered 410 Gone: the deprecated read is retired (D11)',
    );
  });
});

describe('D11: a served deprecated read is judged for its headers whatever its status', () => {
  it('warns on a 500 that announces Deprecation without Sunset, instead of passing it as present', async () => {
    const brokenPets = behaviour(MOCK_LIKE_READINGS, {
      getPet: () => ({
        status: 500,
        headers: { 'content-type': 'application/json', deprecation: '@1767225600' },
        body: '{"code":"internal","message":"boom","status":500}',
      }),
    });
    const result = await runSuiteAgainst(brokenPets, { destructive: false, only: ['pets'], fuzzRequests: 0 });
    expect(check(result, 'pets.deprecation')?.outcome).toBe('WARN');
    expect(check(result, 'pets.deprecation')?.message).toContain('Sunset');
  });
});

describe("D16: a change no cancel can make is another actor's, never blamed on a request of the suite", () => {
  it('an order shipped during a cancel step is a warning of list.changed-by-others, without --shared', async () => {
    const { behaviour: server, store } = shipsOrderMidRun();
    const result = await runSuiteAgainst(
      server,
      {
        destructive: false,
        only: ['cancel.malformed-id.letters', 'list.changed-by-others'],
        fuzzRequests: 0,
      },
      store,
    );
    expect(failures(result)).toEqual([]);
    expect(check(result, 'cancel.malformed-id.letters')?.outcome).toBe('PASS');
    expect(check(result, 'cancel.malformed-id.letters')?.notes.join(' ')).toContain(
      'no cancel can ship an order (the state table), so another actor made the change (D16)',
    );
    expect(check(result, 'list.changed-by-others')?.outcome).toBe('WARN');
    expect(result.environment?.live).toBe(true);
  });

  it('with --sole-client the change fails list.changed-by-others, still not the cancel', async () => {
    const { behaviour: server, store } = shipsOrderMidRun();
    const result = await runSuiteAgainst(
      server,
      {
        destructive: false,
        soleClient: true,
        only: ['cancel.malformed-id.letters', 'list.changed-by-others'],
        fuzzRequests: 0,
      },
      store,
    );
    expect(failures(result).map((f) => f.split(':')[0])).toEqual(['list.changed-by-others']);
  });
});

describe('messages that reproduce: the curl line sends what the suite sent, and a decoding failure names it', () => {
  it('a list gzipped twice fails naming its Content-Encoding, with a curl line that asks for gzip', async () => {
    const doublyGzipped = behaviour(MOCK_LIKE_READINGS, {
      listOrders: () => ({
        raw: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          res.end(gzipSync(gzipSync('[]')));
        },
      }),
    });
    const result = await runSuiteAgainst(doublyGzipped, { destructive: false, only: ['list.orders'] });
    const [first] = check(result, 'list.orders')?.findings ?? [];
    expect(first?.message).toContain(
      'the response has Content-Encoding: gzip, which was decoded once, and the body still starts like gzip data (encoded twice?)',
    );
    expect(first?.request?.headers['accept-encoding']).toBe('gzip, deflate');
    expect(first?.request?.curl).toMatch(/-H 'accept-encoding: gzip, deflate' .*--compressed 'http:/);
  });
});

describe('the base-URL hint', () => {
  it('tells a user whose server serves the API at / to drop /v1', async () => {
    const atRoot = behaviour(MOCK_LIKE_READINGS, {
      async handle(b, request, store) {
        if (request.underV1) return b.error(b, 404, 'not_found', 'No such path.');
        return CORRECT.handle(b, { ...request, underV1: true }, store);
      },
    });
    const result = await runSuiteAgainst(atRoot, { destructive: false });
    expect(result.unreachable?.kind).toBe('no-list');
    const origin = new URL(result.baseUrl).origin;
    expect(result.unreachable?.hint).toContain(
      `a server that serves it at its root needs ${origin} (without /v1)`,
    );
  });
});

describe('a stateless server whose list does not show the pending ids given', () => {
  const stateless = behaviour(MOCK_LIKE_READINGS, {
    listOrders: (b) => b.json(b, 200, [{ id: 100n, petId: 10n, quantity: 1, complete: false }]),
    cancelOrder: async () => ({ status: 204 }),
  });

  it('says so as a setup note on each check that needed one, not that the ids went to other checks', async () => {
    const result = await runSuiteAgainst(stateless, {
      only: ['list.includes-given-orders', 'cancel.pending-order'],
      fuzzRequests: 0,
    });
    expect(check(result, 'list.includes-given-orders')?.outcome).toBe('FAIL');
    expect(check(result, 'cancel.pending-order')?.skip?.reason).toMatch(
      /^pending order\(s\) 3, 5, 7, 9007199254740993 given with --pending-order are not in the first list/,
    );
  });

  it('does not end PASSED with nothing checked under --only cancel.pending-order: exit 2, setup', async () => {
    const result = await runSuiteAgainst(stateless, { only: ['cancel.pending-order'], fuzzRequests: 0 });
    expect(result.outcome).toBe('setup-error');
    expect(result.unreachable?.kind).toBe('pending-unlisted');
    expect(result.unreachable?.message).toMatch(/^nothing was judged: pending order\(s\) 3, 5/);
  });
});
