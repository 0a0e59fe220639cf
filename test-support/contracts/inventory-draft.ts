/**
 * A second hand-made draft of the contract: `spec/openapi.yaml` with a new read operation
 * (`GET /store/inventory`, `getInventory`) and a `limit` query parameter on listOrders (integer, 1 to 100,
 * refused with a 400 Error). The proof that the generic checks follow the document: no check names either.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { packageRoot } from '../../src/contract/package-root.js';
import { addLimit } from './v2-draft.js';

interface Draft {
  paths: Record<string, Record<string, { parameters?: unknown[]; responses?: Record<string, unknown> }>>;
}

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The draft as a parsed document. */
export function inventoryDraft(): Record<string, unknown> {
  const document = load(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')) as Draft;
  const listOrders = document.paths['/store/orders']?.get;
  if (!listOrders) throw new Error('spec/openapi.yaml has no GET /store/orders');
  addLimit(listOrders, 'Draft: how many orders to return at most.');
  listOrders.responses = {
    ...listOrders.responses,
    '400': { description: 'Draft: a parameter its schema refuses.', content: ERROR_BODY },
  };
  document.paths['/store/inventory'] = {
    get: {
      operationId: 'getInventory',
      summary: 'Draft: how many orders are in each state',
      tags: ['orders'],
      security: [{ bearerAuth: [] }],
      responses: {
        '200': {
          description: 'Draft: counts by state.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['pending', 'shipped'],
                properties: { pending: { type: 'integer' }, shipped: { type: 'integer' } },
              },
            },
          },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
      },
    },
  } as Draft['paths'][string];
  return document as unknown as Record<string, unknown>;
}
