/**
 * A hand-made v2 draft of the contract, as a user would write it: `spec/openapi.yaml` parsed with js-yaml
 * (as the fixtures are), a `limit` query parameter added to listOrders (integer, 1 to 100), an integer
 * `X-Total-Count` header on its 200, and the local `servers` entry moved to `/v2`. The proof that the
 * document, not the code, drives the behaviour.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { packageRoot } from '../../src/contract/package-root.js';

interface Draft {
  servers: Array<{ url: string }>;
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; parameters?: unknown[]; responses?: Record<string, { headers?: unknown }> }
    >
  >;
}

/** The draft as a parsed document. */
export function v2Draft(): Record<string, unknown> {
  const document = load(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')) as Draft;
  const local = document.servers.find((server) => server.url.startsWith('http://127.0.0.1'));
  if (!local) throw new Error('spec/openapi.yaml has no local servers entry');
  local.url = local.url.replace(/\/v1$/, '/v2');
  const listOrders = document.paths['/store/orders']?.get;
  if (!listOrders) throw new Error('spec/openapi.yaml has no GET /store/orders');
  addLimit(listOrders, 'v2 draft: how many orders to return at most.');
  const listed = listOrders.responses?.['200'];
  if (!listed) throw new Error('spec/openapi.yaml has no 200 for GET /store/orders');
  listed.headers = {
    'X-Total-Count': {
      description: 'v2 draft: how many orders the store holds, however many this page lists.',
      required: true,
      schema: { type: 'integer', minimum: 0 },
      example: 2,
    },
  };
  return document as unknown as Record<string, unknown>;
}

/** Declares the drafts' `limit` query parameter (integer, 1 to 100) on an operation. */
export function addLimit(operation: { parameters?: unknown[] }, description: string): void {
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: 'limit',
      in: 'query',
      required: false,
      description,
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    },
  ];
}

/** The draft as YAML text, for `--spec FILE`. */
export function v2DraftYaml(): string {
  return dump(v2Draft());
}
