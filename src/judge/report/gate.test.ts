import { describe, expect, it } from 'vitest';
import type { ConformanceResult, Outcome } from '../types.js';
import { applyGate } from './gate.js';
import { check, resultOf } from './test-support/fixtures.js';

const run = (...outcomes: Outcome[]) => resultOf(outcomes.map((o, i) => check(`c${i}`, o)));
const unreachable: ConformanceResult = {
  ...run(),
  outcome: 'unreachable',
  unreachable: { kind: 'key-refused', url: 'http://h/v1/store/orders', message: 'm', hint: 'h' },
};

describe('the gate, decided once for every report and the exit code', () => {
  it.each([
    ['passes', 'fail', run('PASS', 'SKIP'), 'pass'],
    ['passes', 'warn', run('PASS', 'SKIP'), 'pass'],
    ['passes with warnings', 'fail', run('PASS', 'WARN'), 'pass'],
    ['fails with warnings', 'warn', run('PASS', 'WARN'), 'fail'],
    ['fails with a failure', 'fail', run('FAIL', 'WARN'), 'fail'],
    ['fails with a failure', 'warn', run('FAIL'), 'fail'],
    ['stays unreachable', 'warn', unreachable, 'unreachable'],
  ] as const)('a run that %s under --fail-on %s has outcome %s', (_label, failOn, result, outcome) => {
    const gated = applyGate(result, failOn);
    expect(gated.outcome).toBe(outcome);
    expect(gated.failOn).toBe(failOn);
    // The checks keep their verdicts as judged; only the run's verdict follows the gate.
    expect(gated.checks).toEqual(result.checks);
    expect(gated.summary).toEqual(result.summary);
  });

  it('can be applied again with another level', () => {
    expect(applyGate(applyGate(run('WARN'), 'warn'), 'fail')).toMatchObject({
      outcome: 'pass',
      failOn: 'fail',
    });
  });
});
