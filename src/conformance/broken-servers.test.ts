import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { CHECKS } from './checks/index.js';

describe('each broken server is caught by the check meant to catch its bug', () => {
  it.each(BROKEN_SERVERS.map((server) => [server.name, server] as const))('%s', async (_name, server) => {
    const result = await runSuiteAgainst(server.behaviour);
    const outcomes = Object.fromEntries(result.checks.map((check) => [check.id, check.outcome]));
    for (const [id, want] of Object.entries(server.caughtBy)) {
      expect(outcomes[id], `${id} on ${server.name} (${server.bug})`).toBe(want);
    }
    const failing = result.checks.filter((check) => check.outcome === 'FAIL').map((check) => check.id);
    const meant = Object.entries(server.caughtBy)
      .filter(([, outcome]) => outcome === 'FAIL')
      .map(([id]) => id);
    expect(failing.sort(), 'no check fails that is not meant to').toEqual(
      [...meant, ...(server.collateral ?? [])].sort(),
    );
    const warning = result.checks.filter((check) => check.outcome === 'WARN').map((check) => check.id);
    const meantWarn = Object.entries(server.caughtBy)
      .filter(([, outcome]) => outcome === 'WARN')
      .map(([id]) => id);
    expect(warning.sort(), 'no check warns that is not meant to').toEqual(
      [...meantWarn, ...(server.alsoWarns ?? [])].sort(),
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
    ]);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });
});
