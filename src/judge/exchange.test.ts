import { describe, expect, it } from 'vitest';
import { type Exchange, reportRequest, reportResponse, VALID_AUTH } from './exchange.js';
import type { HttpOutcome } from './http-outcome.js';

const KEY = 'SUPERSECRETKEY-0123456789';

function exchangeWith(text: string): Exchange {
  const outcome: HttpOutcome = {
    ok: true,
    value: { status: 401, headers: { 'content-type': 'text/plain' }, text, bytes: text.length },
  };
  return {
    seq: 1,
    checkId: 'list.orders',
    plan: { method: 'GET', path: '/store/orders', auth: VALID_AUTH },
    path: '/store/orders',
    operationId: 'listOrders',
    request: { method: 'GET', url: 'http://h/v1/store/orders', headers: {}, curl: '' },
    outcome,
    errorRule: null,
    judged: [],
  };
}

describe('the body excerpt of a response', () => {
  it.each([
    ['straddling the cut at 500 characters', `${'x'.repeat(488)}Bearer ${KEY} and more`],
    ['starting four characters before the cut', `${'x'.repeat(496)}${KEY}`],
    ['ending exactly at the cut', `${'x'.repeat(500 - KEY.length)}${KEY}${'y'.repeat(20)}`],
    ['inside the excerpt', `Bearer ${KEY}`],
  ])('never carries a piece of a key echoed %s', (_label, body) => {
    const { bodyExcerpt } = reportResponse(exchangeWith(body), KEY);
    expect(bodyExcerpt).not.toContain(KEY.slice(0, 8));
    expect(bodyExcerpt).not.toContain(KEY.slice(0, 4));
  });

  it('is cut at 500 characters of the redacted text, with the size of the whole body', () => {
    const body = `${'x'.repeat(488)}Bearer ${KEY}${'z'.repeat(100)}`;
    const { bodyExcerpt } = reportResponse(exchangeWith(body), KEY);
    expect(bodyExcerpt).toBe(
      `${`${'x'.repeat(488)}Bearer <redacted>${'z'.repeat(100)}`.slice(0, 500)}… (${body.length} bytes)`,
    );
  });
});

// The validating proxy reports the traffic it judges with these same two functions, so what they redact
// is what the proxy's reports redact.
describe('a key encoded in layers, as the suite and the proxy report it', () => {
  const key = 'k/e+y=/k+e=y/k+e=y/k+e=y?';
  const twice = encodeURIComponent(encodeURIComponent(key));

  it('is redacted from a body', () => {
    const { bodyExcerpt } = reportResponse(exchangeWith(`{"next":"/login?key=${twice}"}`), key);
    expect(bodyExcerpt).toBe('{"next":"/login?key=<redacted>"}');
  });

  it('is redacted from a request URL, its headers and its curl line', () => {
    const request = reportRequest('GET', `http://h/v1/store/orders?k=${twice}`, { 'x-echo': twice }, key);
    expect(request.url).toBe('http://h/v1/store/orders?k=<redacted>');
    expect(request.headers['x-echo']).toBe('<redacted>');
    expect(request.curl).not.toContain(twice);
    expect(request.curl).toContain('$PETSTORE_API_KEY');
  });
});
