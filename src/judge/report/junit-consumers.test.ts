/**
 * The JUnit report as real consumers read it: test-results-parser (what testbeats publishes to chat and
 * dashboards) and junit-to-ctrf (the CTRF converter behind the CTRF GitHub and CI reporters). Both decide a
 * case's state by its elements, as Jenkins and GitLab do: <failure> fails, <skipped> is not passed, anything
 * else passes. A warning must never read as passed, and must fail the run only under --fail-on warn.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertJUnitToCTRFReport } from 'junit-to-ctrf';
import { parse } from 'test-results-parser';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceResult, FailOn } from '../types.js';
import { applyGate } from './gate.js';
import { renderJunit } from './junit.js';
import { check, finding, resultOf } from './test-support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'junit-consumers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function written(result: ConformanceResult, failOn: FailOn): string {
  const path = join(dir, `report-${++files}.xml`);
  writeFileSync(path, renderJunit(applyGate(result, failOn)));
  return path;
}

const passing = check('list.orders', 'PASS');
const warned = check('errors.problem', 'WARN', [
  finding('GET /store/orders → 409: the body is text (D3)', 409),
]);
const skipped = check('cancel.pending-order', 'SKIP');
const failed = check('auth.wrong-key', 'FAIL', [
  finding('GET /store/orders → 200: accepted a wrong key', 200),
]);

/** Each consumer's reading: the run's state and each case's state, by check id. */
const CONSUMERS: Array<
  [
    string,
    (
      path: string,
    ) => Promise<{ run: 'pass' | 'fail'; cases: Record<string, string>; messages: Record<string, string> }>,
  ]
> = [
  [
    'test-results-parser',
    async (path) => {
      const parsed = parse({ type: 'junit', files: [path] });
      const cases = Object.fromEntries(
        parsed.suites.flatMap((s) => s.cases).map((c) => [c.name.split(':')[0] ?? '', c.status]),
      );
      const messages = Object.fromEntries(
        parsed.suites.flatMap((s) => s.cases).map((c) => [c.name.split(':')[0] ?? '', c.failure ?? '']),
      );
      return { run: parsed.status === 'FAIL' ? 'fail' : 'pass', cases, messages };
    },
  ],
  [
    'junit-to-ctrf',
    async (path) => {
      const report = await convertJUnitToCTRFReport(path);
      if (!report) throw new Error('junit-to-ctrf read no test');
      const cases = Object.fromEntries(
        report.results.tests.map((t) => [t.name.split(':')[0] ?? '', t.status]),
      );
      const messages = Object.fromEntries(
        report.results.tests.map((t) => [t.name.split(':')[0] ?? '', t.message ?? '']),
      );
      return { run: report.results.summary.failed > 0 ? 'fail' : 'pass', cases, messages };
    },
  ],
];

const STATES: Record<string, Record<string, string>> = {
  'test-results-parser': { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' },
  'junit-to-ctrf': { pass: 'passed', fail: 'failed', skip: 'skipped' },
};

describe.each(CONSUMERS)('%s reads the JUnit report', (consumer, read) => {
  const state = STATES[consumer] ?? {};

  it('shows a warning as skipped, not passed, and does not fail a run without failures', async () => {
    const { run, cases } = await read(written(resultOf([passing, warned, skipped]), 'fail'));
    expect(cases).toEqual({
      'list.orders': state.pass,
      'errors.problem': state.skip,
      'cancel.pending-order': state.skip,
    });
    expect(run).toBe('pass');
  });

  it('shows a warning as failed, and fails the run, under --fail-on warn', async () => {
    const { run, cases } = await read(written(resultOf([passing, warned, skipped]), 'warn'));
    expect(cases).toEqual({
      'list.orders': state.pass,
      'errors.problem': state.fail,
      'cancel.pending-order': state.skip,
    });
    expect(run).toBe('fail');
  });

  it.each(['fail', 'warn'] as const)('shows a failure as failed under --fail-on %s', async (failOn) => {
    const { run, cases } = await read(written(resultOf([passing, failed, warned]), failOn));
    expect(cases['auth.wrong-key']).toBe(state.fail);
    expect(run).toBe('fail');
  });
});

describe('the warning marker', () => {
  it('is a skipped element of type warning whose message starts with WARNING, and the details in system-out', () => {
    const xml = renderJunit(applyGate(resultOf([warned]), 'fail'));
    expect(xml).toMatch(
      /<skipped message="WARNING \(§5, D7\): GET \/store\/orders → 409: the body is text \(D3\)" type="warning"\/>/,
    );
    expect(xml).toMatch(/<system-out>WARNING \(§5, D7\)[^<]*&lt;script&gt;/);
    expect(xml).toMatch(/<testsuite [^>]*failures="0" errors="0" skipped="1"/);
  });

  it('is a failure of type warning under --fail-on warn, counted as a failure', () => {
    const xml = renderJunit(applyGate(resultOf([warned]), 'warn'));
    expect(xml).toMatch(/<failure message="WARNING \(§5, D7\): [^"]*" type="warning">/);
    expect(xml).toMatch(/<testsuite [^>]*failures="1" errors="0" skipped="0"/);
    expect(xml).toMatch(/<property name="failOn" value="warn"\/>/);
  });

  it.each(CONSUMERS)(
    'reaches %s as a failure message that says WARNING under --fail-on warn',
    async (_c, read) => {
      const { messages } = await read(written(resultOf([warned]), 'warn'));
      expect(messages['errors.problem']).toMatch(/^WARNING \(§5, D7\): GET \/store\/orders → 409/);
    },
  );
});
