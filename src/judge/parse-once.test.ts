import { describe, expect, it, vi } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { parseExactJson } from '../contract/lossless-json.js';
import { reportRequest } from './exchange.js';
import { Observer } from './observer.js';
import { judgeExchange } from './rules.js';

vi.mock('../contract/lossless-json.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../contract/lossless-json.js')>();
  return { ...actual, parseExactJson: vi.fn(actual.parseExactJson) };
});

const KEY = 'parse-once-secret-key-0001';
const orders = (complete: boolean) =>
  JSON.stringify([1, 2, 3].map((id) => ({ id, petId: 1, quantity: 1, complete })));

describe('a list body through the judge and the observer (the proxy judges every list it forwards)', () => {
  it('is parsed once per exchange, also when it differs from the list before', () => {
    const contract = defaultContract();
    const observer = new Observer(contract);
    const headers = { authorization: `Bearer ${KEY}` };
    const request = reportRequest('GET', 'http://h/v1/store/orders', headers, KEY);
    [false, true, false].forEach((complete, n) => {
      const text = orders(complete);
      const answer = {
        status: 200,
        headers: { 'content-type': 'application/json' },
        text,
        bytes: text.length,
      };
      vi.mocked(parseExactJson).mockClear();
      const path = '/store/orders';
      expect(judgeExchange(contract, { request, path, outcome: { ok: true, value: answer } }, KEY)).toEqual(
        [],
      );
      const seen = { method: 'GET', path, status: 200, headers: answer.headers, text, bearer: true };
      observer.observe({ key: KEY, orders: KEY }, seen, n);
      expect(vi.mocked(parseExactJson)).toHaveBeenCalledTimes(1);
    });
  });
});
