import { describe, expect, it } from 'vitest';
import { compileRouter } from './router.js';

const route = compileRouter([
  { method: 'GET', path: '/v1/store/orders', target: 'listOrders' },
  { method: 'DELETE', path: '/v1/store/orders/{orderId}', target: 'cancelOrder' },
  { method: 'GET', path: '/v1/pets/{petId}', target: 'getPet' },
]);

describe('the router', () => {
  it.each([
    {
      name: 'matches a literal path',
      method: 'GET',
      path: '/v1/store/orders',
      want: { kind: 'match', target: 'listOrders' },
    },
    {
      name: 'captures a path parameter',
      method: 'DELETE',
      path: '/v1/store/orders/42',
      want: { kind: 'match', target: 'cancelOrder', params: { orderId: '42' } },
    },
    {
      name: 'percent-decodes a parameter',
      method: 'DELETE',
      path: '/v1/store/orders/%34%32',
      want: { kind: 'match', params: { orderId: '42' } },
    },
    {
      name: 'keeps a broken escape as written, so it names no order',
      method: 'DELETE',
      path: '/v1/store/orders/%zz',
      want: { kind: 'match', params: { orderId: '%zz' } },
    },
    {
      name: 'fills no parameter with an empty segment: a trailing slash is a path of its own (D10)',
      method: 'DELETE',
      path: '/v1/store/orders/',
      want: { kind: 'not-found' },
    },
    {
      name: 'matches a literal written with escapes',
      method: 'GET',
      path: '/v1/store/%6Frders',
      want: { kind: 'match', target: 'listOrders' },
    },
    {
      name: 'does not treat an escaped slash as a separator',
      method: 'GET',
      path: '/v1/store%2Forders',
      want: { kind: 'not-found' },
    },
    {
      name: 'answers 405 with the allowed methods for a known path',
      method: 'POST',
      path: '/v1/store/orders',
      want: { kind: 'method-not-allowed', allow: ['GET', 'OPTIONS'] },
    },
    {
      name: 'answers 405 on a templated path',
      method: 'GET',
      path: '/v1/store/orders/1',
      want: { kind: 'method-not-allowed', allow: ['DELETE', 'OPTIONS'] },
    },
    {
      name: 'does not match without the version prefix',
      method: 'GET',
      path: '/store/orders',
      want: { kind: 'not-found' },
    },
    { name: 'is case-sensitive', method: 'GET', path: '/v1/Store/Orders', want: { kind: 'not-found' } },
    {
      name: 'does not match a longer path',
      method: 'DELETE',
      path: '/v1/store/orders/1/2',
      want: { kind: 'not-found' },
    },
    {
      name: 'finds no pet route for an empty pet id',
      method: 'GET',
      path: '/v1/pets/',
      want: { kind: 'not-found' },
    },
    { name: 'finds nothing at the root', method: 'GET', path: '/', want: { kind: 'not-found' } },
  ])('$name', ({ method, path, want }) => {
    expect(route(method, path)).toMatchObject(want);
  });

  it('prefers a literal path to a template that also matches it, whatever their order', () => {
    const both = compileRouter([
      { method: 'GET', path: '/v1/store/orders/{orderId}', target: 'getOrder' },
      { method: 'GET', path: '/v1/store/orders/latest', target: 'latest' },
    ]);
    expect(both('GET', '/v1/store/orders/latest')).toMatchObject({ target: 'latest', params: {} });
    expect(both('GET', '/v1/store/orders/7')).toMatchObject({ target: 'getOrder', params: { orderId: '7' } });
  });

  it('refuses two routes for the same method and path', () => {
    expect(() =>
      compileRouter([
        { method: 'GET', path: '/a', target: 1 },
        { method: 'GET', path: '/a', target: 2 },
      ]),
    ).toThrow(/duplicate route GET \/a/);
  });
});
