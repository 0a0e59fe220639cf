import { describe, expect, it } from 'vitest';
import { DOCUMENT } from '../generated/document.js';
import { matchOperation, reportRequest } from '../judge/exchange.js';
import { judgeExchange } from '../judge/rules.js';
import { buildContract } from './compile.js';
import { matchPathTemplate, parsePathTemplate } from './path-template.js';

const match = (template: string, path: string) =>
  matchPathTemplate(parsePathTemplate(template), path.split('/'));

describe('matching a path template segment by segment', () => {
  it.each([
    ['/store/orders/{orderId}', '/store/orders/7', { orderId: '7' }],
    ['/store/orders/{orderId}', '/store/orders/', undefined],
    ['/store/orders/{orderId}', '/store/orders/7/x', undefined],
    ['/store/orders', '/store/orders', {}],
    ['/store/orders({orderId})', '/store/orders(7)', { orderId: '7' }],
    ['/store/orders({orderId})', '/store/orders7', undefined],
    ['/store/orders({orderId})', '/store/orders()', undefined],
    ['/store/orders(/{orderId}', '/store/orders(/7', { orderId: '7' }],
    ['/store/orders(/{orderId}', '/store/orders/7', undefined],
    ['/a.b/{id}', '/aXb/1', undefined],
    ['/files/{name}.{ext}', '/files/a.b.c', { name: 'a', ext: 'b.c' }],
    ['/x/{a}{b}', '/x/123', { a: '1', b: '23' }],
    ['/x/[a-z]+/{id}', '/x/[a-z]+/1', { id: '1' }],
  ])('%s against %s', (template, path, want) => {
    expect(match(template, path)).toEqual(want);
  });

  it.each([
    ['/store/orders({orderId})', '/store/orders(7)'],
    ['/store/orders(/{orderId}', '/store/orders(/7'],
  ])('judges %s as the document writes it: a 204 to %s is a pass', (template, path) => {
    const document = structuredClone(DOCUMENT) as unknown as { paths: Record<string, unknown> };
    document.paths[template] = document.paths['/store/orders/{orderId}'];
    delete document.paths['/store/orders/{orderId}'];
    const contract = buildContract(document as never);
    expect(matchOperation(contract, 'DELETE', path)).toBe('cancelOrder');
    const request = reportRequest('DELETE', `http://h/v1${path}`, { authorization: 'Bearer k' }, 'k');
    const outcome = { ok: true as const, value: { status: 204, headers: {}, text: '', bytes: 0 } };
    expect(judgeExchange(contract, { request, path, outcome }, 'k')).toEqual([]);
  });
});
