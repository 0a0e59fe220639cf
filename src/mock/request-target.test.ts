import { describe, expect, it } from 'vitest';
import { requestPath } from './request-target.js';

describe('requestPath: the one reading of a request target', () => {
  it.each([
    { name: 'keeps an ordinary path as sent', given: '/v1/store/orders', want: '/v1/store/orders' },
    { name: 'drops the query', given: '/v1/store/orders?x=1', want: '/v1/store/orders' },
    { name: 'drops a fragment', given: '/v1/store/orders#top', want: '/v1/store/orders' },
    { name: 'resolves a single-dot segment', given: '/v1/store/./orders', want: '/v1/store/orders' },
    { name: 'resolves a double-dot segment', given: '/v1/pets/../store/orders', want: '/v1/store/orders' },
    { name: 'resolves an escaped dot segment', given: '/v1/store/%2E/orders', want: '/v1/store/orders' },
    { name: 'reads a backslash as a separator', given: '/v1\\store\\orders', want: '/v1/store/orders' },
    { name: 'keeps a dot inside a segment', given: '/v1/store/orders/1.5', want: '/v1/store/orders/1.5' },
    { name: 'keeps a leading double slash a path', given: '//v1/store/orders', want: '//v1/store/orders' },
    {
      name: 'keeps escapes for the router to decode',
      given: '/v1/store/%6Frders',
      want: '/v1/store/%6Frders',
    },
    {
      name: 'reads absolute-form through URL',
      given: 'http://host/v1/store/orders?x',
      want: '/v1/store/orders',
    },
  ])('$name', ({ given, want }) => {
    expect(requestPath(given)).toBe(want);
  });

  it.each(['/v1/store/./orders', '/v1/x/../store/orders', '/v1/store/%2e/orders', '/v1/store/orders/9'])(
    'agrees with the URL a WHATWG Request holds for %s',
    (target) => {
      const url = new URL(new Request(`http://mock${target}`).url);
      expect(requestPath(target)).toBe(url.pathname);
      expect(requestPath(url.pathname + url.search)).toBe(url.pathname);
    },
  );
});
