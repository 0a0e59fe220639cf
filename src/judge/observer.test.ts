import { describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { buildContract } from '../contract/compile.js';
import { defaultContract } from '../contract/index.js';
import { Observer } from './observer.js';

const contract = defaultContract();

type Step = ['list', string] | ['cancel', string, number] | ['scope', string];

const BIG = '9007199254740993';
const ROUNDED = '9007199254740992';
const orders = (...ids: string[]) =>
  `[${ids.map((id) => `{"id":${id},"petId":10,"complete":false}`).join(',')}]`;
const shipped = (id: string) => `{"id":${id},"petId":10,"complete":true}`;

/** Runs the steps in one scope (or the one a `scope` step switches to); returns the rules found. */
function run(steps: Step[], tracker = new Observer(contract)): string[] {
  let scope = 'key #1';
  const rules: string[] = [];
  steps.forEach((step, i) => {
    if (step[0] === 'scope') scope = step[1];
    else if (step[0] === 'list') rules.push(...tracker.list(scope, step[1], i + 1).map((f) => f.rule));
    else rules.push(...tracker.cancel(scope, step[1], step[2], i + 1).map((f) => f.rule));
  });
  return rules;
}

const CASES: Array<{ name: string; steps: Step[]; want: string[] }> = [
  {
    name: 'a cancelled order that leaves the list is fine',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['list', orders('1')],
    ],
    want: [],
  },
  {
    name: 'a server that keeps cancelled orders listed is a reading the interface allows (D16)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['list', orders('1', '3')],
    ],
    want: [],
  },
  {
    name: 'a cancelled order still listed unchanged on a server seen to drop them fails (D2, D16)',
    steps: [
      ['list', orders('1', '3', '5')],
      ['cancel', '3', 204],
      ['list', orders('1', '5')],
      ['cancel', '5', 204],
      ['list', orders('1', '5')],
    ],
    want: ['state.cancelled-still-listed'],
  },
  {
    name: 'the same list repeated with nothing cancelled hides no later cancel',
    steps: [
      ['list', orders('1', '3', '5')],
      ['cancel', '3', 204],
      ['list', orders('1', '5')],
      ['list', orders('1', '5')],
      ['cancel', '5', 204],
      ['list', orders('1', '5')],
      ['list', orders('1', '5')],
    ],
    want: ['state.cancelled-still-listed'],
  },
  {
    name: 'a cancel that removes another order instead (a rounded id) fails and names that order',
    steps: [
      ['list', orders('1', ROUNDED, BIG)],
      ['cancel', BIG, 204],
      ['list', orders('1', BIG)],
    ],
    want: ['state.cancelled-still-listed'],
  },
  {
    name: 'a 204 for an order the list did not show, while an untouched one left it, fails (ids written inexactly, D8)',
    steps: [
      ['list', orders('1', ROUNDED)],
      ['cancel', BIG, 204],
      ['list', orders('1')],
    ],
    want: ['state.cancelled-unlisted'],
  },
  {
    name: 'a 204 for an order the list did not show is fine when nothing else changed',
    steps: [
      ['list', orders('1')],
      ['cancel', '9', 204],
      ['list', orders('1')],
    ],
    want: [],
  },
  {
    name: 'a second 204 for an order already cancelled fails (D2)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['cancel', '3', 204],
    ],
    want: ['state.second-204'],
  },
  {
    name: 'a second cancel answered 404 or 409 is fine (D2)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['cancel', '3', 404],
      ['cancel', '3', 409],
    ],
    want: [],
  },
  {
    name: 'an order that vanishes with no cancel seen is a warning',
    steps: [
      ['list', orders('1', '3')],
      ['list', orders('1')],
    ],
    want: ['state.vanished'],
  },
  {
    name: 'an order that changes with nobody touching it is a warning',
    steps: [
      ['list', orders('1', '3')],
      ['list', `[${shipped('1')},{"id":3,"petId":10,"complete":false}]`],
    ],
    want: ['state.changed'],
  },
  {
    name: 'a 409 on an order the last list showed with complete: false is a warning (D1)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 409],
    ],
    want: ['state.409-on-pending'],
  },
  {
    name: 'a 204 on an order the last list showed with complete: true is a warning (D1)',
    steps: [
      ['list', `[${shipped('2')}]`],
      ['cancel', '2', 204],
    ],
    want: ['state.204-on-complete'],
  },
  {
    name: 'a 409 on an order listed as complete is fine',
    steps: [
      ['list', `[${shipped('2')}]`],
      ['cancel', '2', 409],
      ['list', `[${shipped('2')}]`],
    ],
    want: [],
  },
  {
    name: 'a shipped order refused with 409 that then leaves the list fails (§3)',
    steps: [
      ['list', `[${shipped('2')},${shipped('4')}]`],
      ['cancel', '2', 409],
      ['list', `[${shipped('4')}]`],
    ],
    want: ['state.refused-then-gone'],
  },
  {
    name: 'a 404 on an order the last list showed is a warning',
    steps: [
      ['list', orders('1', ROUNDED)],
      ['cancel', ROUNDED, 404],
    ],
    want: ['state.404-on-listed'],
  },
  {
    name: 'ids are compared exactly: 2^53 + 1 is not 2^53',
    steps: [
      ['list', orders(ROUNDED)],
      ['list', orders(BIG)],
    ],
    want: ['state.vanished'],
  },
  {
    name: 'two keys do not mix: a cancel by one explains nothing in the other',
    steps: [
      ['list', orders('1', '3')],
      ['scope', 'key #2'],
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['scope', 'key #1'],
      ['cancel', '3', 204],
    ],
    want: [],
  },
  {
    name: 'a cancelled order that left the list and comes back later fails (§3, D2, D16)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['list', orders('1')],
      ['list', orders('1')],
      ['list', orders('1', '3')],
    ],
    want: ['state.cancelled-returns'],
  },
  {
    name: 'a cancelled order kept listed all along does not come back: it never left (D16 keeps)',
    steps: [
      ['list', orders('1', '3')],
      ['cancel', '3', 204],
      ['list', `[{"id":1,"petId":10,"complete":false},${shipped('3')}]`],
      ['list', `[{"id":1,"petId":10,"complete":false},${shipped('3')}]`],
    ],
    want: [],
  },
  {
    name: 'a 204 for an order refused with 409 before fails: shipped stays shipped (§3)',
    steps: [
      ['list', `[${shipped('2')}]`],
      ['cancel', '2', 409],
      ['cancel', '2', 204],
    ],
    want: ['state.cancel-after-refusal'],
  },
  {
    name: 'a 409 for a shipped order asked again is fine',
    steps: [
      ['list', `[${shipped('2')}]`],
      ['cancel', '2', 409],
      ['cancel', '2', 409],
    ],
    want: [],
  },
  {
    name: 'a 204 after a 404 is not judged: the order may be one another client placed since',
    steps: [
      ['cancel', '9', 404],
      ['cancel', '9', 204],
    ],
    want: [],
  },
  {
    name: 'a list that is not a JSON array is left to the per-exchange judgements',
    steps: [
      ['list', orders('1')],
      ['list', '<html>'],
      ['list', orders('1')],
    ],
    want: [],
  },
];

describe('the rules that span requests', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, { steps, want }) => {
    expect(run(steps)).toEqual(want);
  });

  it('names the order that really changed when a cancel hit the wrong one', () => {
    const tracker = new Observer(contract);
    tracker.list('k', orders('1', ROUNDED, BIG), 1);
    tracker.cancel('k', BIG, 204, 2);
    const [found] = tracker.list('k', orders('1', BIG), 3);
    expect(found?.message).toContain(`order ${BIG} was cancelled (204) and is still listed unchanged`);
    expect(found?.message).toContain(`order ${ROUNDED}, which no request cancelled, vanished`);
  });

  it('learns the server reading across scopes', () => {
    const tracker = new Observer(contract);
    run(
      [
        ['list', orders('1', '3')],
        ['cancel', '3', 204],
        ['list', orders('1')],
      ],
      tracker,
    );
    expect(tracker.reading).toEqual({ dropped: 1, keptListed: 0, forgottenScopes: 0 });
    expect(
      run(
        [
          ['scope', 'key #2'],
          ['list', orders('5')],
          ['cancel', '5', 204],
          ['list', orders('5')],
        ],
        tracker,
      ),
    ).toEqual(['state.cancelled-still-listed']);
  });
});

const seen = (method: string, path: string, status: number, text = '', headers = {}) => ({
  method,
  path,
  status,
  headers,
  text,
  scheme: 'Bearer',
});

describe('one key is accepted everywhere or nowhere (§5)', () => {
  const CASES_AUTH: Array<{ name: string; steps: Array<[string, ReturnType<typeof seen>]>; want: string[] }> =
    [
      {
        name: 'refused on the list and accepted on a cancel fails',
        steps: [
          ['key #1', seen('GET', '/store/orders', 401)],
          ['key #1', seen('DELETE', '/store/orders/424242', 404)],
        ],
        want: ['state.key-inconsistent'],
      },
      {
        name: 'accepted on the pet read and refused on the list fails, whatever the order',
        steps: [
          ['key #1', seen('GET', '/pets/10', 200, '{"id":10}', { deprecation: '@1' })],
          ['key #1', seen('GET', '/store/orders', 401)],
        ],
        want: ['state.key-inconsistent'],
      },
      {
        name: 'a key refused everywhere is consistent',
        steps: [
          ['key #2', seen('GET', '/store/orders', 401)],
          ['key #2', seen('DELETE', '/store/orders/3', 401)],
          ['key #1', seen('GET', '/store/orders', 200, '[]')],
        ],
        want: [],
      },
      {
        name: 'a key revoked during the run (accepted, then refused everywhere) is not flagged',
        steps: [
          ['key #1', seen('GET', '/store/orders', 200, '[]')],
          ['key #1', seen('DELETE', '/store/orders/5', 404)],
          ['key #1', seen('GET', '/store/orders', 401)],
          ['key #1', seen('DELETE', '/store/orders/5', 401)],
        ],
        want: [],
      },
      {
        name: 'a 404 on the pet read without Deprecation shows nothing (the path may be gone, D10)',
        steps: [
          ['key #1', seen('GET', '/store/orders', 401)],
          ['key #1', seen('GET', '/pets/10', 404)],
        ],
        want: [],
      },
    ];
  it.each(CASES_AUTH.map((c) => [c.name, c] as const))('%s', (_name, { steps, want }) => {
    const observer = new Observer(contract);
    const rules = steps.flatMap(([key, s], i) =>
      observer.observe({ key, orders: key }, s, i + 1).map((f) => f.rule),
    );
    expect(rules).toEqual(want);
  });
});

describe('--sole-client: the observer sees every request the server gets (D20)', () => {
  const CASES_SOLE: Array<{ name: string; steps: Step[]; want: Array<[string, string]> }> = [
    {
      name: 'an order that vanishes with no request naming it fails',
      steps: [
        ['list', orders('1', '3')],
        ['list', orders('1')],
      ],
      want: [['state.vanished', 'failure']],
    },
    {
      name: 'an order that changes with no request naming it fails',
      steps: [
        ['list', orders('1', '3')],
        ['list', `[${shipped('1')},{"id":3,"petId":10,"complete":false}]`],
      ],
      want: [['state.changed', 'failure']],
    },
    {
      name: "another key's cancel explains the vanish: the proxy saw it",
      steps: [
        ['list', orders('1', '3')],
        ['scope', 'key #2'],
        ['cancel', '3', 204],
        ['scope', 'key #1'],
        ['list', orders('1')],
      ],
      want: [],
    },
  ];
  it.each(CASES_SOLE.map((c) => [c.name, c] as const))('%s', (_name, { steps, want }) => {
    const observer = new Observer(contract, { soleClient: true });
    let scope = 'key #1';
    const found: Array<[string, string]> = [];
    steps.forEach((step, i) => {
      if (step[0] === 'scope') scope = step[1];
      else if (step[0] === 'list')
        found.push(...observer.list(scope, step[1], i + 1).map((f): [string, string] => [f.rule, f.level]));
      else
        found.push(
          ...observer.cancel(scope, step[1], step[2], i + 1).map((f): [string, string] => [f.rule, f.level]),
        );
    });
    expect(found).toEqual(want);
    const lenient = new Observer(contract);
    expect(run(steps, lenient).length).toBe(want.length);
  });
});

describe("the verdicts follow the document's state table", () => {
  /** The document with shipped → cancelOrder answering 410, and a `held` state refused with 423. */
  function alteredContract() {
    type Row = Record<string, unknown>;
    const document = structuredClone(contract.document) as Record<string, unknown>;
    const table = document['x-petstore-order-states'] as {
      states: Record<string, Row>;
      transitions: Row[];
    };
    table.states.held = { listed: true, complete: false, source: 'test' };
    for (const t of table.transitions) if (t.from === 'shipped') t.status = 410;
    table.transitions.push({
      from: 'held',
      operation: 'cancelOrder',
      to: 'held',
      status: 423,
      source: 'test',
    });
    return buildContract(document);
  }

  it('reads a refusal with the status the table gives, and no longer with the old one', () => {
    const altered = new Observer(alteredContract());
    altered.list('k', `[${shipped('2')}]`, 1);
    altered.cancel('k', '2', 410, 2);
    expect(altered.cancel('k', '2', 204, 3).map((f) => f.rule)).toEqual(['state.cancel-after-refusal']);
    const builtIn = new Observer(contract);
    builtIn.list('k', `[${shipped('2')}]`, 1);
    builtIn.cancel('k', '2', 410, 2);
    expect(builtIn.cancel('k', '2', 204, 3).map((f) => f.rule)).toEqual(['state.204-on-complete']);
  });

  it('knows a state the table adds: a held order (complete: false) refused with 423 is not a warning', () => {
    const altered = new Observer(alteredContract());
    altered.list('k', orders('8'), 1);
    expect(altered.cancel('k', '8', 423, 2)).toEqual([]);
    expect(altered.list('k', '[]', 3).map((f) => f.rule)).toEqual(['state.refused-then-gone']);
  });
});

describe('exchanges in flight together are read in an order the server may have served them in', () => {
  const seen = (status: number, startedAt: number, endedAt: number, path = '/store/orders/3') => ({
    seen: { method: 'DELETE', path, status, headers: {}, text: '', scheme: 'Bearer', startedAt, endedAt },
    label: `${status}@${endedAt}`,
  });
  const CASES: Array<{ name: string; given: Array<ReturnType<typeof seen>>; want: string[] }> = [
    {
      name: 'a 204 overlapping an earlier-answered 404 of the same order goes first',
      given: [seen(404, 1, 2), seen(204, 0, 40)],
      want: ['204@40', '404@2'],
    },
    {
      name: 'a 204 that started after the 409 ended stays after it',
      given: [seen(409, 1, 2), seen(204, 3, 40)],
      want: ['409@2', '204@40'],
    },
    {
      name: 'two overlapping 204s keep the order their answers ended in',
      given: [seen(204, 1, 30), seen(204, 0, 20)],
      want: ['204@20', '204@30'],
    },
    {
      name: 'a 204 of another order does not move',
      given: [seen(404, 1, 2), seen(204, 0, 40, '/store/orders/5')],
      want: ['404@2', '204@40'],
    },
  ];
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, { given, want }) => {
    expect(new Observer(contract).order(given).map((e) => e.label)).toEqual(want);
  });

  it('judges the reordered double click as one cancel', () => {
    const observer = new Observer(contract);
    const scope = { key: 'k', orders: 'k' };
    const list = { method: 'GET', path: '/store/orders', status: 200, headers: {}, scheme: 'Bearer' };
    observer.observe(scope, { ...list, text: orders('3') }, 1);
    const found = observer
      .order([seen(409, 1, 2), seen(204, 0, 40)])
      .flatMap((e, i) => observer.observe(scope, e.seen, i + 2));
    expect(found).toEqual([]);
  });
});

describe('the memory of remembered lists is bounded (issue 18: a new session per request)', () => {
  it('forgets the oldest scopes past the budget, never the current one, and counts them', () => {
    const list = orders('1', '2', '3');
    // Room for two lists of this size: the third scope pushes the first out.
    const tracker = new Observer(contract, { maxListBytes: list.length * 8 * 2 });
    tracker.list('session a', list, 1);
    tracker.list('session b', list, 2);
    expect(tracker.reading.forgottenScopes).toBe(0);
    tracker.list('session c', list, 3);
    expect(tracker.reading.forgottenScopes).toBe(1);
    // Session a was forgotten: an order gone from its next list is no longer compared with what it saw.
    expect(tracker.list('session a', orders('1', '2'), 4).map((f) => f.rule)).toEqual([]);
    // Session c is still remembered: the same change there is seen.
    expect(tracker.list('session c', orders('1', '2'), 5).map((f) => f.rule)).not.toEqual([]);
  });

  it('keeps every scope while the lists fit', () => {
    const tracker = new Observer(contract);
    for (let i = 0; i < 100; i += 1) tracker.list(`session ${i}`, orders('1', '2'), i + 1);
    expect(tracker.reading.forgottenScopes).toBe(0);
  });
});

describe('a list read that may be filtered is not the whole list (the v2 draft)', () => {
  const draft = buildContract(v2Draft());
  const read = (observer: Observer, path: string, ids: string[], n: number) =>
    observer
      .observe(
        { key: 'k', orders: 'k' },
        { method: 'GET', path, status: 200, headers: {}, text: orders(...ids), scheme: 'Bearer' },
        n,
      )
      .map((f) => f.rule);

  it('an order missing from ?limit=1 has not vanished, even under --sole-client', () => {
    const observer = new Observer(draft, { soleClient: true });
    expect(read(observer, '/store/orders', ['1', '3', '5'], 1)).toEqual([]);
    expect(read(observer, '/store/orders?limit=1', ['1'], 2)).toEqual([]);
    expect(read(observer, '/store/orders?limit=2', ['1', '3'], 3)).toEqual([]);
    expect(read(observer, '/store/orders', ['1', '3', '5'], 4)).toEqual([]);
  });

  it('a parameter the document does not declare filters nothing: the read is still the whole list', () => {
    const observer = new Observer(draft, { soleClient: true });
    expect(read(observer, '/store/orders', ['1', '3', '5'], 1)).toEqual([]);
    expect(read(observer, '/store/orders?page=2', ['1'], 2)).toEqual(['state.vanished']);
  });
});
