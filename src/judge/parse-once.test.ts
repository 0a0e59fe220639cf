import { describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { reportRequest } from './exchange.js';
import { readList } from './observer.js';
import { judgeExchange } from './rules.js';

const KEY = 'parse-once-secret-key-0001';
const orders = (complete: boolean) =>
  JSON.stringify([1, 2, 3].map((id) => ({ id, petId: 1, quantity: 1, complete })));

function judge(text: string) {
  const request = reportRequest('GET', 'http://h/v1/store/orders', { authorization: `Bearer ${KEY}` }, KEY);
  const value = { status: 200, headers: { 'content-type': 'application/json' }, text, bytes: text.length };
  return judgeExchange(
    defaultContract(),
    { request, path: '/store/orders', outcome: { ok: true, value } },
    KEY,
  );
}

// The proxy judges every list it forwards: judgeExchange's parse is the observer's too (one parse per exchange).
describe('a list body through the judge and the observer', () => {
  it('is read from the parse judgeExchange made, also when it differs from the list before', () => {
    for (const text of [orders(false), orders(true)]) {
      expect(judge(text)).toEqual([]);
      const once = readList(text)?.items;
      expect(once).toHaveLength(3);
      expect(readList(text)?.items).toBe(once);
    }
  });

  it('is parsed afresh when judgeExchange did not find it valid', () => {
    const text = '[{"id":18446744073709551616,"petId":1,"quantity":1,"complete":false}]';
    expect(judge(text)).not.toEqual([]);
    expect(readList(text)?.items).not.toBe(readList(text)?.items);
  });
});
