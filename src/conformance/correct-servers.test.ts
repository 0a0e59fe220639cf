import { describe, expect, it } from 'vitest';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';

describe('correct servers that read the open points differently produce no failure', () => {
  it.each(CORRECT_SERVERS.map((server) => [server.name, server] as const))('%s', async (_name, server) => {
    const result = await runSuiteAgainst(server.behaviour);
    const notPassing = result.checks.filter((c) => c.outcome !== 'PASS' && c.outcome !== 'SKIP');
    expect(notPassing.filter((c) => c.outcome === 'FAIL').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(notPassing.map((c) => c.id).sort()).toEqual([...server.warns].sort());
    expect(result.outcome).toBe('pass');
    for (const [id, text] of server.shows) {
      const check = result.checks.find((c) => c.id === id);
      expect([check?.message, ...(check?.notes ?? [])].join(' | '), `${id} shows the reading`).toContain(
        text,
      );
    }
    // Only the D11 pet checks may be skipped, and only on a server that no longer serves pets (or routes them).
    const skipped = result.checks.filter((c) => c.outcome === 'SKIP').map((c) => c.id);
    expect(skipped.sort()).toEqual(
      [...(server.behaviour.readings.servesPets ? [] : ['pets.deprecation']), ...(server.skips ?? [])].sort(),
    );
    for (const id of server.skips ?? []) {
      const check = result.checks.find((c) => c.id === id);
      expect(check?.skip?.reason, `${id} says why it was not judged`).toMatch(/not judged: .*404/);
    }
  });

  it('the readings really differ on D2, D3, D9 and D10', () => {
    const readings = CORRECT_SERVERS.map((s) => s.behaviour.readings);
    expect(new Set(readings.map((r) => r.recancel)).size).toBe(2);
    expect(new Set(readings.map((r) => r.shippedBody)).size).toBe(2);
    expect(new Set(readings.map((r) => r.malformed.status)).size).toBe(3);
    expect(new Set(readings.map((r) => r.unsupportedMethod)).size).toBe(2);
  });
});
