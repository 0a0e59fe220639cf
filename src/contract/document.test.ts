/**
 * Holds the authored document to the interface spec (`../shared/interface-spec.md`): every operation,
 * status, schema reference, required list, format and security requirement, each case naming its section.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DOCUMENT_PATH } from './package-root.js';

// The document is untyped YAML; tests read it as nested records and assert on what they find.
type Node = { [key: string]: Node } & Record<string, unknown>;
const doc = parse(readFileSync(DOCUMENT_PATH, 'utf8')) as Node;

/** Reads a JSON Pointer-ish path of keys from the document. */
function at(...keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

describe('document metadata', () => {
  const cases: Array<{ section: string; given: string[]; want: unknown }> = [
    { section: '§9', given: ['openapi'], want: '3.1.0' },
    { section: '§9', given: ['info', 'version'], want: '1.0.0' },
    { section: '§5', given: ['components', 'securitySchemes', 'bearerAuth', 'type'], want: 'http' },
    { section: '§5', given: ['components', 'securitySchemes', 'bearerAuth', 'scheme'], want: 'bearer' },
    { section: '§5', given: ['security'], want: [{ bearerAuth: [] }] },
  ];
  it.each(cases)('$section: $given.join(".") is $want', ({ given, want }) => {
    expect(at(...given)).toEqual(want);
  });

  it('D12: servers are the two named placeholders ending in /v1, then the local mock', () => {
    const servers = at('servers') as Array<{ url: string; variables?: Record<string, { default: string }> }>;
    expect(servers.map((s) => s.url)).toEqual([
      '{base_url}',
      '{staging_base_url}',
      'http://127.0.0.1:4010/v1',
    ]);
    for (const server of servers.slice(0, 2)) {
      const name = server.url.slice(1, -1);
      expect(server.variables?.[name]?.default).toMatch(/\/v1$/);
    }
  });

  it('§4.1, §4.2: the orders tag exists for both order operations', () => {
    expect((at('tags') as Array<{ name: string }>).map((t) => t.name)).toEqual(['orders', 'pets']);
  });
});

describe('operations', () => {
  const cases = [
    {
      section: '§4.1',
      path: '/store/orders',
      method: 'get',
      operationId: 'listOrders',
      tag: 'orders',
      statuses: ['200', '401'],
    },
    {
      section: '§4.2',
      path: '/store/orders/{orderId}',
      method: 'delete',
      operationId: 'cancelOrder',
      tag: 'orders',
      statuses: ['204', '401', '404', '409'],
    },
    {
      section: '§1, D11',
      path: '/pets/{petId}',
      method: 'get',
      operationId: 'getPet',
      tag: 'pets',
      statuses: ['200', '401', '404'],
    },
  ];

  it('§4: the document has exactly these three operations', () => {
    const found = Object.entries(at('paths') as Node).flatMap(([path, item]) =>
      Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(found.sort()).toEqual([
      'DELETE /store/orders/{orderId}',
      'GET /pets/{petId}',
      'GET /store/orders',
    ]);
  });

  it.each(cases)('$section: $method $path is $operationId with responses $statuses', (c) => {
    const op = at('paths', c.path, c.method) as Node;
    expect(op.operationId).toBe(c.operationId);
    expect(op.tags).toEqual([c.tag]);
    expect(Object.keys(op.responses ?? {})).toEqual(c.statuses);
  });

  it.each(cases)('§5: $operationId requires bearerAuth', (c) => {
    expect(at('paths', c.path, c.method, 'security')).toEqual([{ bearerAuth: [] }]);
  });

  it.each(cases)('$section: every description of $operationId cites a section', (c) => {
    const op = at('paths', c.path, c.method) as Node;
    expect(String(op.description)).toMatch(/§\d/);
    for (const response of Object.values(op.responses ?? {})) {
      const resolved = response.$ref ? (at(...String(response.$ref).slice(2).split('/')) as Node) : response;
      expect(String(resolved.description)).toMatch(/§\d/);
    }
  });

  const bodies = [
    {
      section: '§4.1',
      path: '/store/orders',
      method: 'get',
      status: '200',
      want: { type: 'array', items: { $ref: '#/components/schemas/Order' } },
    },
    {
      section: '§4.1, §5',
      path: '/store/orders',
      method: 'get',
      status: '401',
      want: { $ref: '#/components/schemas/Error' },
    },
    {
      section: '§4.2, §5',
      path: '/store/orders/{orderId}',
      method: 'delete',
      status: '401',
      want: { $ref: '#/components/schemas/Error' },
    },
    {
      section: '§4.2, §7',
      path: '/store/orders/{orderId}',
      method: 'delete',
      status: '404',
      want: { $ref: '#/components/schemas/Error' },
    },
    {
      section: '§7, D3',
      path: '/store/orders/{orderId}',
      method: 'delete',
      status: '409',
      want: { $ref: '#/components/schemas/Error' },
    },
    {
      section: 'D11',
      path: '/pets/{petId}',
      method: 'get',
      status: '200',
      want: { $ref: '#/components/schemas/Pet' },
    },
  ];
  it.each(bodies)('$section: $method $path $status has an application/json body of $want', (c) => {
    let response = at('paths', c.path, c.method, 'responses', c.status) as Node;
    if (response.$ref) response = at(...String(response.$ref).slice(2).split('/')) as Node;
    expect(Object.keys(response.content ?? {})).toEqual(['application/json']);
    expect(response.content?.['application/json']?.schema).toEqual(c.want);
    expect(Object.keys(response.content?.['application/json']?.examples ?? {})).not.toHaveLength(0);
  });

  it('§4.2: 204 has no content', () => {
    expect(at('paths', '/store/orders/{orderId}', 'delete', 'responses', '204', 'content')).toBeUndefined();
  });

  it('§4.2, D8: orderId is a required int64 path parameter', () => {
    const [param] = at('paths', '/store/orders/{orderId}', 'delete', 'parameters') as Node[];
    expect(param).toMatchObject({
      name: 'orderId',
      in: 'path',
      required: true,
      schema: { type: 'integer', format: 'int64' },
    });
  });

  it('§1, §9, D11: GET /pets/{petId} is deprecated and documents Deprecation and Sunset headers', () => {
    expect(at('paths', '/pets/{petId}', 'get', 'deprecated')).toBe(true);
    expect(Object.keys(at('paths', '/pets/{petId}', 'get', 'responses', '200', 'headers') as Node)).toEqual([
      'Deprecation',
      'Sunset',
    ]);
  });

  it('§4.1: listOrders takes no parameters and no body', () => {
    expect(at('paths', '/store/orders', 'get', 'parameters')).toBeUndefined();
    expect(at('paths', '/store/orders', 'get', 'requestBody')).toBeUndefined();
  });
});

describe('schemas', () => {
  const fields = [
    { section: '§2', schema: 'Order', field: 'id', want: { type: 'integer', format: 'int64' } },
    { section: '§2', schema: 'Order', field: 'petId', want: { type: 'integer', format: 'int64' } },
    { section: '§2', schema: 'Order', field: 'quantity', want: { type: 'integer' } },
    { section: '§2', schema: 'Order', field: 'shipDate', want: { type: 'string', format: 'date-time' } },
    { section: '§2', schema: 'Order', field: 'complete', want: { type: 'boolean' } },
    { section: '§2', schema: 'Error', field: 'code', want: { type: 'string' } },
    { section: '§2', schema: 'Error', field: 'message', want: { type: 'string' } },
    { section: '§2', schema: 'Error', field: 'status', want: { type: 'integer' } },
  ];
  it.each(fields)('$section: $schema.$field is $want', ({ schema, field, want }) => {
    const property = at('components', 'schemas', schema, 'properties', field) as Node;
    expect(property).toMatchObject(want);
    if (!('format' in want)) expect(property.format).toBeUndefined();
  });

  it('§2: Order has exactly the five published fields and none is required', () => {
    expect(Object.keys(at('components', 'schemas', 'Order', 'properties') as Node)).toEqual([
      'id',
      'petId',
      'quantity',
      'shipDate',
      'complete',
    ]);
    expect(at('components', 'schemas', 'Order', 'required')).toBeUndefined();
  });

  it('§2: all three Error fields are required', () => {
    expect(at('components', 'schemas', 'Error', 'required')).toEqual(['code', 'message', 'status']);
  });

  it('D11: Pet is an open object', () => {
    expect(at('components', 'schemas', 'Pet')).toMatchObject({ type: 'object', additionalProperties: true });
  });
});

describe('decisions as extensions', () => {
  // §3, D1–D3: the facts of x-petstore-order-states are pinned once, in src/mock/order-state.test.ts.
  it('D3: the 409 body is a warning-level rule, its status a failure-level one', () => {
    expect(at('components', 'responses', 'OrderAlreadyShipped', 'x-petstore-conformance')).toEqual({
      decision: 'D3',
      status: 'failure',
      body: 'warning',
    });
  });

  it('D4: Error code values are examples, not an enum', () => {
    const code = at('components', 'schemas', 'Error', 'properties', 'code') as Node;
    expect(code.enum).toBeUndefined();
    expect(code.examples).toEqual([
      'unauthorized',
      'order_not_found',
      'order_already_shipped',
      'not_found',
      'method_not_allowed',
    ]);
  });
});
