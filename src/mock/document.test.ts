/**
 * The document and the code agree. The document is free to change (a newer draft, a v2): what is held here
 * is not what it says but that the code serves all of it. Every operation it declares has a handler in the
 * mock, and the mock has none it does not declare; every status it documents is one the mock answers
 * without being forced (a case of the behaviour table shows each); every body it documents is JSON (D15)
 * and every error body the Error the mock writes (§7); every description cites the section it follows.
 * (Which `x-petstore-*` block is read by which code: spec/extensions.test.ts.)
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContract } from '../contract/compile.js';
import { defaultContract } from '../contract/contract.js';
import { packageRoot } from '../contract/package-root.js';
import { API_HANDLERS, unservedOperation } from './engine.js';
import { BEHAVIOUR } from './test-support/behaviour-table.js';
import { operationFor } from './test-support/document-check.js';

const contract = defaultContract();

// The document is untyped JSON; these tests read it as nested records.
type Node = { [key: string]: Node } & Record<string, unknown>;
const doc = contract.document as Node;

function resolve(node: Node, within: Node = doc): Node {
  const ref = node.$ref as unknown;
  if (typeof ref !== 'string') return node;
  return ref
    .slice(2)
    .split('/')
    .reduce((at: Node, key: string) => at[key] as Node, within);
}

describe('the operations of the document and the handlers of the mock', () => {
  it('has a handler for every operation the document declares, and none for another', () => {
    expect(unservedOperation(contract)).toBeUndefined();
    expect(Object.keys(API_HANDLERS).sort()).toEqual(contract.operations.map((op) => op.operationId).sort());
  });

  it('names an operation the mock cannot serve', () => {
    const draft = structuredClone(contract.document) as Node;
    (draft.paths as Node)['/store/inventory'] = {
      get: { operationId: 'getInventory', responses: { 204: { description: '§4' } } },
    } as unknown as Node;
    const loaded = loadContract(draft);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(unservedOperation(loaded.value)).toMatch(/no handler for operation getInventory/);
  });
});

describe('the statuses of the document and the answers of the mock', () => {
  /** Operation and status of every answer the behaviour table expects with no fault or `Prefer` forcing it. */
  const forced = (c: (typeof BEHAVIOUR)[number]) =>
    c.steps.some(
      (step) => step.request.headers?.prefer !== undefined || step.request.path.startsWith('/__mock/faults'),
    );
  const answered = new Set(
    BEHAVIOUR.filter((c) => !forced(c))
      .flatMap((c) => c.steps)
      .map((step) => `${operationFor(step.request.method, step.request.path)} ${step.want.status}`),
  );
  const documented = contract.operations.flatMap((op) =>
    op.statuses.map((status) => ({ operationId: op.operationId, status })),
  );

  it.each(documented)('the mock answers $operationId $status unforced', ({ operationId, status }) => {
    expect(answered).toContain(`${operationId} ${status}`);
  });

  it.each(documented)(
    'documents $operationId $status as JSON, and as the Error when it is an error (D15, §7)',
    ({ operationId, status }) => {
      const response = contract.operation(operationId).responses.get(status);
      expect(response?.mediaType).toBe(status === 204 ? null : 'application/json');
      if (status < 400) return;
      const { method, path } = contract.operation(operationId);
      const authored = resolve((doc.paths as Node)[path]?.[method]?.responses?.[String(status)] as Node);
      expect(authored.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    },
  );
});

describe('the descriptions of the document', () => {
  // The authored YAML: the embedded document leaves the prose out (scripts/without-prose.ts).
  const authoredDoc = parse(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')) as Node;
  it.each(contract.operations.map((op) => [op.operationId, op] as const))(
    '%s and each of its responses cite a section of the interface spec',
    (_id, op) => {
      const authored = (authoredDoc.paths as Node)[op.path]?.[op.method] as Node;
      expect(String(authored.description)).toMatch(/§\d/);
      for (const response of Object.values(authored.responses ?? {})) {
        expect(String(resolve(response, authoredDoc).description)).toMatch(/§\d/);
      }
    },
  );
});
