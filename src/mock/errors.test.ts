import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultContract } from '../contract/index.js';
import { packageRoot } from '../contract/package-root.js';
import { CORE_ERRORS, errorJson, errorNameFor, type MockErrorName, mockError } from './errors.js';
import { MOCK_ERRORS } from './index.js';
import { errorResponse } from './responses.js';

const contract = defaultContract();

describe('the error table', () => {
  it("builds a valid Error body for every entry, the package's socket errors included", () => {
    for (const [name, spec] of Object.entries(MOCK_ERRORS)) {
      const body = JSON.parse(
        errorJson(
          name in CORE_ERRORS
            ? mockError(name as MockErrorName, { id: 7n })
            : { spec, message: spec.message },
        ),
      );
      expect(contract.validateSchema('Error', body).ok, name).toBe(true);
      expect(body.status, name).toBe(spec.status);
      expect(body.message, name).not.toContain('{id}');
    }
  });

  it('says every message in plain text, no Markdown (issue 24: an app shows it as it comes)', () => {
    const documented = contract.operations.flatMap((operation) =>
      [...operation.responses.values()].flatMap((response) => [...response.examples.values()]),
    );
    const messages = [
      ...Object.values(MOCK_ERRORS).map((spec) => spec.message),
      ...documented.map((example) => (example as { message?: unknown } | null)?.message),
    ].filter((message) => typeof message === 'string');
    expect(messages.length).toBeGreaterThan(Object.keys(MOCK_ERRORS).length);
    for (const message of messages) expect(message).not.toMatch(/`|\*\*/);
  });

  it.each([
    { name: 'an id with quotes and a backslash', error: mockError('orderNotFound', { id: 'a"b\\c' }) },
    { name: 'an id with control characters', error: mockError('orderNotFound', { id: 'a\u0000\tb\u001f' }) },
    { name: 'a lone surrogate', error: mockError('invalidRequest', { message: 'x\ud800y' }) },
    { name: 'an int64 id', error: mockError('orderAlreadyShipped', { id: 9007199254740993n }) },
  ])('sends the Error body of $name as JSON.stringify of the Error object', ({ error }) => {
    const sent = errorResponse(error, undefined).body;
    expect(sent).toBe(
      JSON.stringify({ code: error.spec.code, message: error.message, status: error.spec.status }),
    );
    expect(JSON.parse(String(sent))).toEqual({ ...error.spec, message: error.message });
  });

  it('has a table entry for each code the document lists as an Error.code example (D4)', () => {
    // The authored YAML: schema examples are prose to the embedded document, which leaves them out.
    const { components } = parse(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')) as {
      components: { schemas: { Error: { properties: { code: { examples: unknown[] } } } } };
    };
    const documented = components.schemas.Error.properties.code.examples;
    expect(documented.length).toBeGreaterThan(0);
    const codes = new Set<string>(Object.values(MOCK_ERRORS).map((spec) => spec.code));
    for (const code of documented) expect(codes, String(code)).toContain(code);
  });

  it.each([
    { name: 'fills the id into the message', given: { id: 404n }, want: 'No order has id 404.' },
    { name: 'keeps a message given whole', given: { message: 'Custom.' }, want: 'Custom.' },
    {
      name: 'echoes an id as sent, even one that looks like a replacement pattern',
      given: { id: "$&$'" },
      want: "No order has id $&$'.",
    },
    {
      name: 'clips a long echoed id',
      given: { id: 'x'.repeat(500) },
      want: `No order has id ${'x'.repeat(61)}....`,
    },
  ])('$name', ({ given, want }) => {
    expect(mockError('orderNotFound', given).message).toBe(want);
  });

  it('finds the entry for every code the state table names', () => {
    for (const transition of contract.orderStates.transitions) {
      if (transition.status >= 400)
        expect(errorNameFor(transition.code ?? '', transition.status)).toBeDefined();
    }
    expect(errorNameFor('no_such_code', 400)).toBeUndefined();
  });

  it('sends the body of every Error example of the document, message included', () => {
    let compared = 0;
    for (const operation of contract.operations) {
      for (const response of operation.responses.values()) {
        for (const example of response.examples.values()) {
          const { code, status, message } = example as { code?: string; status?: number; message?: string };
          if (typeof code !== 'string' || typeof status !== 'number' || typeof message !== 'string') continue;
          const name = errorNameFor(code, status);
          expect(name, `${operation.operationId} ${status} ${code}`).toBeDefined();
          // The examples name an id (404, 2); the mock's message for that id must read the same.
          const id = /\d+/.exec(message)?.[0];
          if (name)
            expect(JSON.parse(errorJson(mockError(name, id === undefined ? {} : { id })))).toEqual(example);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });
});
