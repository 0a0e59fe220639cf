import { describe, expect, it } from 'vitest';
import { StateTracker } from './observer.js';

type Step = ['list', string] | ['cancel', string, number] | ['scope', string];

const BIG = '9007199254740993';
const ROUNDED = '9007199254740992';
const orders = (...ids: string[]) =>
  `[${ids.map((id) => `{"id":${id},"petId":10,"complete":false}`).join(',')}]`;
const shipped = (id: string) => `{"id":${id},"petId":10,"complete":true}`;

/** Runs the steps in one scope (or the one a `scope` step switches to); returns the rules found. */
function run(steps: Step[], tracker = new StateTracker()): string[] {
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
    const tracker = new StateTracker();
    tracker.list('k', orders('1', ROUNDED, BIG), 1);
    tracker.cancel('k', BIG, 204, 2);
    const [found] = tracker.list('k', orders('1', BIG), 3);
    expect(found?.message).toContain(`order ${BIG} was cancelled (204) and is still listed unchanged`);
    expect(found?.message).toContain(`order ${ROUNDED}, which no request cancelled, vanished`);
  });

  it('learns the server reading across scopes', () => {
    const tracker = new StateTracker();
    run(
      [
        ['list', orders('1', '3')],
        ['cancel', '3', 204],
        ['list', orders('1')],
      ],
      tracker,
    );
    expect(tracker.reading).toEqual({ dropped: 1, keptListed: 0 });
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
