import { describe, expect, it } from 'vitest';
import { TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { everywhere, MISBEHAVIOURS, onListOnly } from '../../test-support/servers/robustness-servers.js';
import { runSuiteAgainst as runAgainst } from '../../test-support/servers/run-suite.js';
import { closedPort } from '../../test-support/servers/serve.js';
import { runConformance } from './runner.js';

describe('a misbehaving answer is a failure of the check that received it, and the run goes on', () => {
  it.each(MISBEHAVIOURS.map((m) => [m.name, m] as const))('%s on GET /store/orders', async (_name, m) => {
    // Only the hanging list waits for the time-out; 1.5 s leaves the correct answers ample time on a busy machine.
    // The fuzz phase runs against the hanging list only: it must fail without waiting to shrink.
    const fuzz = m.name === 'hang' ? {} : { fuzzRequests: 0 };
    const result = await runAgainst(onListOnly(m.raw), { timeoutMs: 1_500, ...fuzz });
    const list = result.checks.find((c) => c.id === 'list.orders');
    expect(list?.outcome).toBe('FAIL');
    expect(list?.message).toMatch(m.message);
    expect(list?.findings[0]?.request?.curl).toContain('$PETSTORE_API_KEY');
    // Nothing else fails: the other checks ran against the parts that answer correctly. The fuzz phase may
    // draw the list too, and then fails for the same reason, without waiting to shrink an unanswered request.
    const failing = result.checks.filter((c) => c.outcome === 'FAIL');
    expect(failing.map((c) => c.id).filter((id) => id !== 'fuzz.invariants')).toEqual(['list.orders']);
    for (const check of failing) expect(check.message, check.id).toMatch(m.message);
    expect(result.checks.find((c) => c.id === 'list.includes-given-orders')?.outcome).toBe('SKIP');
    expect(result.checks.length).toBeGreaterThan(40);
    expect(result.outcome).toBe('fail');
    expect(JSON.stringify(result)).not.toContain(TARGET_KEY);
  });

  it.each([
    ['hang', 60],
    ['reset', 1_000],
    ['huge-body', 5_000],
  ] as const)(
    '%s on every request: every check that sent something fails, the run ends',
    async (name, timeoutMs) => {
      const m = MISBEHAVIOURS.find((x) => x.name === name);
      if (!m) throw new Error(name);
      const result = await runAgainst(everywhere(m.raw), { timeoutMs });
      expect(result.outcome).toBe('fail');
      expect(result.unreachable).toBeNull();
      for (const check of result.checks) {
        if (check.outcome === 'FAIL') expect(check.message, check.id).toMatch(m.message);
        else expect(check.outcome, `${check.id}: ${check.message}`).toBe('SKIP');
      }
      // The sweeps had no answer to judge, and say so instead of passing.
      expect(result.checks.find((c) => c.id === 'errors.contract')?.skip?.reason).toMatch(
        /no error response/,
      );
    },
  );

  it('reports a refused connection as unreachable, without running the checks', async () => {
    const port = await closedPort();
    const result = await runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: TARGET_KEY });
    expect(result.outcome).toBe('unreachable');
    expect(result.unreachable?.message).toMatch(/ECONNREFUSED/);
    expect(result.checks).toEqual([]);
  });

  it('survives a fetch that throws', async () => {
    const result = await runConformance({
      baseUrl: 'http://in-process.invalid/v1',
      apiKey: TARGET_KEY,
      fetch: async () => {
        throw new Error('handler exploded');
      },
    });
    expect(result.outcome).toBe('fail');
    expect(result.checks.find((c) => c.id === 'list.orders')?.message).toMatch(/handler exploded/);
  });
});
