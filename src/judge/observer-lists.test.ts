import { describe, expect, it } from 'vitest';
import { cancelEffect, readList, type SentCancel } from './observer.js';

const snapshotOf = (text: string) => readList(text)?.orders ?? null;
const list = (...ids: string[]) => {
  const snapshot = snapshotOf(`[${ids.map((id) => `{"id":${id},"quantity":1}`).join(',')}]`);
  if (snapshot === null) throw new Error('not a list');
  return snapshot;
};
const sent = (raw: string, status: number | null, id: string | null = raw): SentCancel => ({
  path: `/store/orders/${raw}`,
  raw,
  id,
  status,
});

describe('what a cancel did, judged from the list before and after', () => {
  it.each([
    [
      'a cancelled order that left the list: the server drops them',
      list('3', '5'),
      list('5'),
      [sent('3', 204)],
      null,
      [],
      'drops',
    ],
    [
      'a cancelled order that stayed: the server keeps them (D16)',
      list('3', '5'),
      list('3', '5'),
      [sent('3', 204)],
      null,
      [],
      'keeps',
    ],
    [
      'a cancelled order that stayed unchanged on a server known to drop them',
      list('3', '5'),
      list('3', '5'),
      [sent('5', 204)],
      'drops',
      ['5: is still listed unchanged'],
      null,
    ],
    [
      'a rounding server: the neighbour left, the named order stayed',
      list('9007199254740996', '3'),
      list('3'),
      [sent('9007199254740997', 204)],
      'drops',
      ['9007199254740996: left the list after DELETE /store/orders/9007199254740997 answered 204'],
      null,
    ],
    [
      'a refused cancel that changed nothing',
      list('2', '3'),
      list('2', '3'),
      [sent('2', 409)],
      'drops',
      [],
      null,
    ],
    [
      'a refused cancel that removed the order anyway',
      list('2', '3'),
      list('3'),
      [sent('2', 409)],
      'drops',
      ['2: left the list'],
      null,
    ],
    [
      'a lenient parser: 7.5 cancels 7',
      list('7'),
      list(),
      [sent('7.5', 204, null)],
      'drops',
      ['7: left the list after DELETE /store/orders/7.5'],
      null,
    ],
    [
      'a collateral cancel',
      list('3', '5', '9'),
      list('5'),
      [sent('3', 204)],
      'drops',
      ['9: left the list'],
      'drops',
    ],
    [
      'a changed bystander',
      snapshotOf('[{"id":3},{"id":5,"quantity":1}]'),
      snapshotOf('[{"id":5,"quantity":2}]'),
      [sent('3', 204)],
      null,
      ['5: changed after'],
      'drops',
    ],
    [
      'a cancel without an answer may have gone through',
      list('3'),
      list(),
      [sent('3', null)],
      'drops',
      [],
      null,
    ],
  ] as const)('%s', (_label, before, after, cancels, reading, problems, learned) => {
    if (before === null || after === null) throw new Error('not a list');
    const verdict = cancelEffect(before, after, cancels, reading);
    expect(verdict.problems.map((p) => p.orderId)).toEqual(problems.map((p) => p.split(':')[0]));
    verdict.problems.forEach((p, i) => {
      const [id, ...text] = (problems[i] ?? '').split(': ');
      expect(p.message).toContain(`order ${id} ${text.join(': ')}`);
    });
    expect(verdict.learned).toBe(learned);
  });

  it('reads ids above 2^53 exactly', () => {
    expect([...list('9007199254740993', '9007199254740992').keys()]).toEqual([
      '9007199254740993',
      '9007199254740992',
    ]);
  });
});

describe('readList (the list reading the suite and the proxy share)', () => {
  const read = snapshotOf;
  it.each([
    { given: 'an object, not a list', body: '{"id":1}', want: null },
    { given: 'a list of orders', body: '[{"id":1},{"id":2}]', want: ['1', '2'] },
    {
      given: 'items that are not orders with a numeric id',
      body: '[1,"x",null,[],{"id":"3"},{"quantity":1},{"id":4}]',
      want: ['4'],
    },
    { given: 'an id above 2^53', body: '[{"id":9007199254740993}]', want: ['9007199254740993'] },
  ])('$given', ({ body, want }) => {
    const orders = read(body);
    expect(orders === null ? null : [...orders.keys()]).toEqual(want);
  });
});
