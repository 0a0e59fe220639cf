/**
 * Each broken server is caught by the checks meant to catch its bug, in a destructive run and, where no
 * cancel is needed, in a read-only one, which changes no order (D19). The fuzz phase is off unless it is
 * the catching check: its own proofs are in fuzz/.
 */
import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS, type BrokenServer } from '../../test-support/servers/broken-servers.js';
import { baitedOrders } from '../../test-support/servers/careless-parsers.js';
import { createStore, SHIPPED_IDS } from '../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { stringifyExactJson } from '../contract/index.js';
import type { ConformanceResult } from '../judge/types.js';
import { CHECKS } from './checks/index.js';

const FUZZ = 'fuzz.invariants';
const fuzzes = (server: BrokenServer) =>
  FUZZ in server.caughtBy || server.collateral?.includes(FUZZ) || server.needsFuzz === true;
const meant = (server: BrokenServer, outcome: 'FAIL' | 'WARN') =>
  Object.entries(server.caughtBy)
    .filter(([, want]) => want === outcome)
    .map(([id]) => id);
const withOutcome = (result: ConformanceResult, outcome: 'FAIL' | 'WARN') =>
  result.checks.filter((check) => check.outcome === outcome).map((check) => check.id);

describe('each broken server is caught by the check meant to catch its bug', () => {
  it.each(BROKEN_SERVERS.map((server) => [server.name, server] as const))('%s', async (_name, server) => {
    const result = await runSuiteAgainst(server.behaviour, fuzzes(server) ? {} : { fuzzRequests: 0 });
    const outcomes = Object.fromEntries(result.checks.map((check) => [check.id, check.outcome]));
    for (const [id, want] of Object.entries(server.caughtBy)) {
      expect(outcomes[id], `${id} on ${server.name} (${server.bug})`).toBe(want);
    }
    const failing = withOutcome(result, 'FAIL');
    expect(failing.sort(), 'no check fails that is not meant to').toEqual(
      [...meant(server, 'FAIL'), ...(server.collateral ?? [])].sort(),
    );
    expect(withOutcome(result, 'WARN').sort(), 'no check warns that is not meant to').toEqual(
      [...meant(server, 'WARN'), ...(server.alsoWarns ?? [])].sort(),
    );
    for (const [id, text] of server.says ?? []) {
      const check = result.checks.find((c) => c.id === id);
      expect(check?.message, `${id} on ${server.name} says what really happened`).toContain(text);
    }
    expect(result.outcome).toBe(failing.length > 0 ? 'fail' : 'pass');
    for (const check of result.checks.filter((c) => c.outcome === 'FAIL' || c.outcome === 'WARN')) {
      expect(check.findings.length, `${check.id} says what broke`).toBeGreaterThan(0);
      for (const finding of check.findings) {
        expect(finding.request?.curl).toMatch(/^curl -i -X [A-Z]+ /);
        expect(finding.expected).not.toBe('');
      }
    }
  });

  it('covers every check of the suite', () => {
    const caught = new Set(BROKEN_SERVERS.flatMap((server) => Object.keys(server.caughtBy)));
    expect(CHECKS.map((check) => check.id).filter((id) => !caught.has(id))).toEqual([]);
  });

  it('names only checks that exist', () => {
    const ids = new Set(CHECKS.map((check) => check.id));
    const named = BROKEN_SERVERS.flatMap((server) => [
      ...Object.keys(server.caughtBy),
      ...(server.collateral ?? []),
      ...(server.alsoWarns ?? []),
      ...(server.says ?? []).map(([id]) => id),
      ...(server.caughtOnlyByCancelling ?? []),
    ]);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });
});

/**
 * Servers whose one bug is to cancel a shipped order when asked: the named shipped ids are D19's exception.
 * (list-read-writes changes order 1 itself on every read of the list.)
 */
const CANCELS_SHIPPED = new Set([
  'cancel-shipped-succeeds',
  'shipped-409-but-removed',
  'shipped-cancelled-on-retry',
]);

describe('a read-only run catches each bug that needs no cancel, and changes no order (D19)', () => {
  // cancel.cancelled-stays-gone follows the order that cancel.pending-order cancels.
  const needsCancel = new Set([
    ...CHECKS.filter((c) => c.needs?.destructive).map((c) => c.id),
    'cancel.cancelled-stays-gone',
  ]);

  it.each(BROKEN_SERVERS.map((server) => [server.name, server] as const))('%s', async (name, server) => {
    const store = createStore(baitedOrders());
    const before = new Map(store.orders.map((o) => [String(o.id), stringifyExactJson(o as never)]));
    const result = await runSuiteAgainst(server.behaviour, { destructive: false, fuzzRequests: 0 }, store);
    expect(result.unreachable).toBeNull();
    expect(result.checks.length).toBeGreaterThan(40);
    const outcomes = Object.fromEntries(result.checks.map((check) => [check.id, check.outcome]));
    // A check that cancels is skipped; one that aims at an unused id read-only passes or has no such id.
    const readOnly = Object.entries(server.caughtBy).filter(([id]) => {
      if (!needsCancel.has(id) && id !== FUZZ) return true;
      expect(outcomes[id], `${id} on ${name} read-only`).toBe('SKIP');
      return false;
    });
    const byCancelling = new Set(server.caughtOnlyByCancelling ?? []);
    for (const [id, want] of readOnly) {
      const allowed = byCancelling.has(id) ? ['PASS', 'SKIP'] : [want, 'SKIP'];
      expect(allowed, `${id} on ${name} read-only`).toContain(outcomes[id]);
    }
    const catching = readOnly.filter(([id]) => !byCancelling.has(id));
    if (catching.length > 0) {
      expect(
        catching.filter(([id, want]) => outcomes[id] === want),
        `a read-only run catches ${name}`,
      ).not.toEqual([]);
    }
    // Nothing fails or warns that the destructive run does not also fail or warn on.
    const failing = withOutcome(result, 'FAIL');
    expect(
      failing.filter((id) => !server.collateral?.includes(id) && server.caughtBy[id] !== 'FAIL'),
    ).toEqual([]);
    const warning = withOutcome(result, 'WARN');
    expect(warning.filter((id) => !server.alsoWarns?.includes(id) && server.caughtBy[id] !== 'WARN')).toEqual(
      [],
    );
    // The only orders a read-only run may ask to cancel are the shipped ones the user named; a server whose
    // bug is to cancel them is caught doing so (cancel.shipped-order).
    const changed = store.orders
      .filter((o) => before.get(String(o.id)) !== stringifyExactJson(o as never))
      .map((o) => String(o.id));
    const allowed = CANCELS_SHIPPED.has(name) ? SHIPPED_IDS : name === 'list-read-writes' ? ['1'] : [];
    expect(changed.filter((id) => !allowed.includes(id))).toEqual([]);
    expect(store.orders.length).toBe(before.size);
  });
});
