import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { int64Locations } from './int64-locations.js';

const int64 = { type: 'integer', format: 'int64' };

function document(paths: unknown, schemas: unknown = {}): OpenAPI3 {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } } as OpenAPI3;
}

function answering(schema: unknown, status = '200') {
  return { '/things': { get: { responses: { [status]: { content: { 'application/json': { schema } } } } } } };
}

describe('int64Locations', () => {
  it.each([
    {
      name: 'finds an int64 body',
      given: document(answering(int64)),
      want: { 'GET /things': { '200': true } },
    },
    {
      name: 'follows arrays, objects and $refs',
      given: document(answering({ type: 'array', items: { $ref: '#/components/schemas/T' } }), {
        T: {
          type: 'object',
          properties: { id: int64, n: { type: 'integer' }, inner: { properties: { x: int64 } } },
        },
      }),
      want: {
        'GET /things': { '200': { items: { properties: { id: true, inner: { properties: { x: true } } } } } },
      },
    },
    {
      name: 'follows a $ref to a shared response',
      given: {
        ...document({
          '/things': { delete: { responses: { '409': { $ref: '#/components/responses/R' } } } },
        }),
        components: {
          responses: { R: { content: { 'application/json': { schema: { properties: { id: int64 } } } } } },
        },
      } as unknown as OpenAPI3,
      want: { 'DELETE /things': { '409': { properties: { id: true } } } },
    },
    {
      name: 'skips bodies without an int64 and answers without a body',
      given: document({
        '/things': {
          get: {
            responses: {
              '200': { content: { 'application/json': { schema: { type: 'string' } } } },
              '204': {},
            },
          },
        },
      }),
      want: {},
    },
    {
      name: 'stops at a schema that refers to itself',
      given: document(answering({ $ref: '#/components/schemas/Node' }), {
        Node: { properties: { id: int64, next: { $ref: '#/components/schemas/Node' } } },
      }),
      want: { 'GET /things': { '200': { properties: { id: true } } } },
    },
  ])('$name', ({ given, want }) => {
    expect(int64Locations(given)).toEqual(want);
  });
});
