import { describe, expect, it } from 'vitest';
import { preflightHeaders } from './cors.js';

describe('preflightHeaders (D14)', () => {
  const cases = [
    {
      name: 'allows the documented methods',
      methods: ['GET', 'OPTIONS'],
      requested: 'GET',
      want: 'GET, OPTIONS',
    },
    {
      name: 'adds an undocumented method asked for, so the page sees the 405',
      methods: ['GET', 'OPTIONS'],
      requested: 'PUT',
      want: 'GET, OPTIONS, PUT',
    },
    { name: 'allows what is asked on an unknown path', methods: [], requested: 'DELETE', want: 'DELETE' },
    {
      name: 'never echoes a value that is not a method token',
      methods: ['GET'],
      requested: 'GET\u0000X',
      want: 'GET',
    },
    { name: 'never echoes an overlong method', methods: ['GET'], requested: 'X'.repeat(33), want: 'GET' },
  ];
  it.each(cases)('$name', ({ methods, requested, want }) => {
    expect(preflightHeaders(methods, requested)['access-control-allow-methods']).toBe(want);
  });

  it('keeps Allow to the documented methods and names Authorization for the key', () => {
    const headers = preflightHeaders(['DELETE', 'OPTIONS'], 'PUT');
    expect(headers.allow).toBe('DELETE, OPTIONS');
    expect(headers['access-control-allow-headers']).toContain('Authorization');
    expect(preflightHeaders([], 'GET').allow).toBeUndefined();
  });
});
