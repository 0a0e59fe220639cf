/**
 * Documents that would hang or kill a tool are refused by `loadContract` with one line (issue 25): a
 * schema that refers to itself without reading into the value, and a pattern that backtracks.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT } from '../generated/document.js';
import { loadContract } from './compile.js';

type Draft = {
  components: { schemas: Record<string, unknown>; headers: Record<string, { schema: object }> };
};

function withSchemas(schemas: Record<string, unknown>): Draft {
  const document = structuredClone(DOCUMENT) as unknown as Draft;
  Object.assign(document.components.schemas, schemas);
  return document;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('loading a document checks its operationIds', () => {
  it('refuses a second operation with the same operationId, naming it (every table is keyed by it)', () => {
    const document = structuredClone(DOCUMENT) as unknown as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const getPet = Object.values(document.paths).find((item) => item.get?.operationId === 'getPet');
    if (getPet?.get) getPet.get.operationId = 'listOrders';
    const loaded = loadContract(document);
    expect(loaded.ok ? 'loaded' : loaded.error).toMatch(
      /^the document GET \/.+ repeats operationId listOrders$/,
    );
  });
});

describe('loading a document compiles its schemas now, not on a request', () => {
  it.each([
    [
      'an unknown keyword in an unused component',
      { Unused: { type: 'object', bogus: 1 } },
      /unknown keyword/,
    ],
    ['a $ref to nothing', { Unused: ref('Nowhere') }, /can't resolve reference/],
  ])('refuses %s in one line', (_what, schemas, reason) => {
    const loaded = loadContract(withSchemas(schemas));
    expect(loaded.ok ? 'loaded' : loaded.error).toMatch(/^the document cannot be compiled: /);
    expect(loaded.ok ? 'loaded' : loaded.error).toMatch(reason);
  });
});

describe('loading a document checks its recursion and its patterns', () => {
  it.each([
    ['allOf', { Node: { type: 'object', allOf: [ref('Node')] } }, 'Node'],
    ['a $ref to its own root', { Node: { type: 'object', not: { not: { $ref: '#' } } } }, 'Node'],
    ['if/else, for objects only', { Node: { if: { not: { type: 'object' } }, else: ref('Node') } }, 'Node'],
    ['two schemas in turn', { A: { anyOf: [ref('B')] }, B: { oneOf: [ref('A')] } }, 'A'],
    ['another schema, named', { A: { allOf: [ref('B')] }, B: { allOf: [ref('B')] } }, 'B'],
  ])('refuses a schema that refers to itself through %s, naming it', (_how, schemas, name) => {
    const loaded = loadContract(withSchemas(schemas));
    expect(loaded.ok ? 'loaded' : loaded.error).toMatch(`the document's schema ${name} refers to itself`);
  });

  it('accepts a schema that refers to itself for a part of the value (a tree)', () => {
    const tree = {
      Node: { type: 'object', properties: { children: { type: 'array', items: ref('Node') } } },
    };
    expect(loadContract(withSchemas(tree)).ok).toBe(true);
  });

  it('refuses a backtracking pattern wherever it sits, here a response header', () => {
    const document = withSchemas({});
    document.components.headers.Deprecation = { schema: { type: 'string', pattern: '^([0-9]+)*$' } };
    const loaded = loadContract(document);
    expect(loaded.ok ? 'loaded' : loaded.error).toMatch(
      'the document\'s pattern "^([0-9]+)*$" repeats a group',
    );
  });
});
