import { describe, expect, it } from 'vitest';
import { defaultContract, type ExactJson } from '../contract/index.js';
import {
  FaultPlan,
  type FaultSpec,
  MAX_FAULT_RULES,
  parseDelay,
  parseFaultSpec,
  readFaultSettings,
  simulatedFault,
} from './faults.js';

const contract = defaultContract();

const OPERATIONS = ['listOrders', 'cancelOrder', 'getPet'];
const spec = (over: Partial<FaultSpec>): FaultSpec => ({
  operation: null,
  delayMs: 0,
  times: 1,
  ...over,
});

describe('a session fault plan (D18)', () => {
  it('applies a rule to the next N requests of its operation, then forgets it', () => {
    const plan = new FaultPlan();
    plan.add(spec({ operation: 'listOrders', status: 503, times: 2 }));
    expect(plan.take('cancelOrder')).toBeUndefined();
    expect(plan.take('listOrders')).toMatchObject({ status: 503, remaining: 1 });
    expect(plan.take('listOrders')).toMatchObject({ status: 503, remaining: 0 });
    expect(plan.take('listOrders')).toBeUndefined();
    expect(plan.list()).toEqual([]);
  });

  it('applies a rule without an operation to every operation', () => {
    const plan = new FaultPlan();
    plan.add(spec({ drop: true, times: 2 }));
    expect(plan.take('cancelOrder')?.drop).toBe(true);
    expect(plan.take('getPet')?.drop).toBe(true);
    expect(plan.take('listOrders')).toBeUndefined();
  });

  it('applies rules in the order they were added', () => {
    const plan = new FaultPlan();
    plan.add(spec({ operation: 'cancelOrder', status: 500 }));
    plan.add(spec({ status: 502 }));
    expect(plan.take('listOrders')?.status).toBe(502);
    expect(plan.take('cancelOrder')?.status).toBe(500);
    expect(plan.list()).toEqual([]);
  });

  it('hands out copies, so a caller cannot change what is planned', () => {
    const plan = new FaultPlan();
    plan.add(spec({ status: 500, times: 3 }));
    const taken = plan.take('listOrders');
    if (taken) taken.remaining = 100;
    expect(plan.list()[0]?.remaining).toBe(2);
  });

  it(`holds at most ${MAX_FAULT_RULES} rules`, () => {
    const plan = new FaultPlan();
    for (let i = 0; i < MAX_FAULT_RULES; i++) expect(plan.add(spec({ status: 500 }))).toBeDefined();
    expect(plan.add(spec({ status: 500 }))).toBeUndefined();
    plan.clear();
    expect(plan.list()).toEqual([]);
    expect(plan.add(spec({ status: 500 }))?.id).toBe(MAX_FAULT_RULES + 1);
  });
});

describe('the body of POST /__mock/faults', () => {
  const accepted: Array<{ name: string; given: ExactJson; want: FaultSpec }> = [
    {
      name: 'a status for one operation, twice',
      given: { operation: 'listOrders', status: 503, times: 2 },
      want: { operation: 'listOrders', status: 503, delayMs: 0, times: 2 },
    },
    {
      name: 'a dropped connection for every operation, once',
      given: { drop: true },
      want: { operation: null, drop: true, delayMs: 0, times: 1 },
    },
    {
      name: 'every operation named as GET /__mock/faults shows it, null',
      given: { operation: null, status: 503 },
      want: { operation: null, status: 503, delayMs: 0, times: 1 },
    },
    {
      name: 'a slow route that still answers',
      given: { operation: 'cancelOrder', delayMs: 1500 },
      want: { operation: 'cancelOrder', delayMs: 1500, times: 1 },
    },
    {
      name: 'a slow failure',
      given: { status: 504, delayMs: 3000n },
      want: { operation: null, status: 504, delayMs: 3000, times: 1 },
    },
    {
      name: 'a status with the message the screen should show',
      given: { status: 503, message: 'The store is closed for maintenance.' },
      want: {
        operation: null,
        status: 503,
        delayMs: 0,
        times: 1,
        message: 'The store is closed for maintenance.',
      },
    },
  ];
  it.each(accepted)('accepts $name', ({ given, want }) => {
    expect(parseFaultSpec(given, OPERATIONS)).toEqual({ ok: true, value: want });
  });

  const refused: Array<{ name: string; given: ExactJson; want: RegExp }> = [
    { name: 'a body that is not an object', given: [1], want: /must be a JSON object/ },
    { name: 'no body', given: null, want: /must be a JSON object/ },
    { name: 'an unknown field', given: { status: 500, route: '/x' }, want: /Unknown field\(s\) route/ },
    {
      name: 'an unknown operation',
      given: { operation: 'nope', status: 500 },
      want: /one of listOrders, cancelOrder, getPet/,
    },
    { name: 'a 2xx status', given: { status: 200 }, want: /"status" must be a whole number from 400 to 599/ },
    { name: 'a status as a string', given: { status: '500' }, want: /"status" must be/ },
    {
      name: 'a negative delay',
      given: { delayMs: -1 },
      want: /"delayMs" must be a whole number from 0 to 30000/,
    },
    { name: 'a delay over thirty seconds', given: { delayMs: 30_001 }, want: /"delayMs" must be/ },
    { name: 'a null delay', given: { delayMs: null }, want: /"delayMs" must be a whole number/ },
    { name: 'a null times', given: { status: 503, times: null }, want: /"times" must be a whole number/ },
    { name: 'zero times', given: { status: 500, times: 0 }, want: /"times" must be a whole number from 1/ },
    { name: 'a fractional times', given: { status: 500, times: 1.5 }, want: /"times" must be/ },
    { name: 'drop false', given: { drop: false, status: 500 }, want: /"drop" must be true/ },
    { name: 'both a status and a drop', given: { drop: true, status: 500 }, want: /not both/ },
    { name: 'nothing to do', given: { operation: 'listOrders' }, want: /Say what the fault does/ },
    {
      name: 'a message that is not text',
      given: { status: 500, message: 5 },
      want: /"message" goes with a "status": text/,
    },
    { name: 'an empty message', given: { status: 500, message: '' }, want: /1 to 200 characters/ },
    {
      name: 'a message over 200 characters',
      given: { status: 500, message: 'x'.repeat(201) },
      want: /"message" goes with a "status": text of 1 to 200 characters/,
    },
    { name: 'a message without a status', given: { drop: true, message: 'x' }, want: /goes with a "status"/ },
  ];
  it.each(refused)('refuses $name', ({ given, want }) => {
    const outcome = parseFaultSpec(given, OPERATIONS);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(want);
  });
});

describe('the body of PUT /__mock/delay', () => {
  it.each([
    { given: { delayMs: 250 }, want: { ok: true, value: 250 } },
    { given: { delayMs: 0 }, want: { ok: true, value: 0 } },
  ])('accepts $given', ({ given, want }) => {
    expect(parseDelay(given)).toEqual(want);
  });
  it.each<ExactJson>([{ delayMs: -1 }, { delayMs: 'slow' }, { delayMs: 1, extra: true }, {}, null, [250]])(
    'refuses %j',
    (given) => {
      expect(parseDelay(given)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/\{"delayMs": N\}/),
      });
    },
  );
});

describe('the simulated-fault Error', () => {
  it('says "simulated" in words a screen may show, without the control path', () => {
    const error = simulatedFault(503, readFaultSettings(contract.document));
    expect(error.spec).toMatchObject({ status: 503, code: 'simulated_fault' });
    expect(error.message).toBe('Simulated fault: the mock answered 503 on purpose.');
  });

  it("carries the fault's own message, its code still simulated", () => {
    const error = simulatedFault(503, readFaultSettings(contract.document), 'Try again later.');
    expect(error.spec.code).toBe('simulated_fault');
    expect(error.message).toBe('Try again later.');
  });

  it('takes its code and marker header from the document', () => {
    const extension = contract.document['x-petstore-faults'] as Record<string, unknown>;
    const settings = readFaultSettings({
      ...contract.document,
      'x-petstore-faults': { ...extension, code: 'chaos', header: 'X-Chaos' },
    });
    expect(settings).toMatchObject({ code: 'chaos', header: 'x-chaos' });
    expect(simulatedFault(500, settings).spec.code).toBe('chaos');
    expect(() => readFaultSettings({})).toThrow(/x-petstore-faults needs/);
  });
});
