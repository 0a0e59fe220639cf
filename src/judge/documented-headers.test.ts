import { describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { loadContract } from '../contract/compile.js';
import { documentedHeaderViolations } from './documented-headers.js';

const loaded = loadContract(v2Draft());
if (!loaded.ok) throw new Error(loaded.error);
const draft = loaded.value;

const problems = (value: string) =>
  documentedHeaderViolations(draft, 'listOrders', 200, { 'x-total-count': value }).map((p) => p.message);

describe('documented headers are read as their schema type before validating (the v2 draft)', () => {
  it('passes an integer X-Total-Count sent as text', () => {
    expect(problems('13')).toEqual([]);
    expect(problems('0')).toEqual([]);
  });

  it.each([
    ['abc', 'must be integer'],
    ['1.5', 'must be integer'],
    ['-1', 'must be >= 0'],
  ])('fails X-Total-Count: %s', (value, why) => {
    expect(problems(value)).toEqual([`with X-Total-Count: ${JSON.stringify(value)}, which ${why}`]);
  });

  it('fails a missing X-Total-Count', () => {
    expect(documentedHeaderViolations(draft, 'listOrders', 200, {}).map((p) => p.message)).toEqual([
      'without X-Total-Count',
    ]);
  });
});

describe('a documented header whose $ref leads nowhere', () => {
  it('is still required, checked by no schema, and throws nothing', () => {
    const document = v2Draft() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: object }> }>>;
    };
    const listed = document.paths['/store/orders']?.get?.responses['200'];
    if (!listed) throw new Error('the draft has no 200 for GET /store/orders');
    listed.headers = { 'X-Total-Count': { $ref: '#/components/headers/Nowhere' } };
    const contract = loadContract(document);
    if (!contract.ok) throw new Error(contract.error);
    const messages = (headers: Record<string, string>) =>
      documentedHeaderViolations(contract.value, 'listOrders', 200, headers).map((p) => p.message);
    expect(messages({})).toEqual(['without X-Total-Count']);
    expect(messages({ 'x-total-count': 'abc' })).toEqual([]);
  });
});
