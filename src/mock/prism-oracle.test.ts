/**
 * Prism as an independent oracle. Prism's router and request validator decide, for seeded random
 * requests with a valid key, whether each one names a documented operation and whether its input is
 * valid; the mock must agree: Prism's "no path" is our 404 not_found, "no method" our 405, "invalid
 * input" our D9 404 (Prism says 422 there, which the document does not have), and a valid request gets
 * one of the operation's documented statuses.
 *
 * Where the two readings differ by design, the case is left out and counted: ids of 16 digits or more,
 * where Prism checks int64 on doubles and we check it exactly (D8), are covered by our own tests.
 */
import { join } from 'node:path';
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { packageRoot } from '../contract/package-root.js';
import { createMock, type Mock } from './index.js';
import { AUTH, expectConforms } from './test-support/document-check.js';
import { seededRandom } from './test-support/http.js';

const contract = defaultContract();

const SEED = 4010;
const CASES = 300;

type PrismInstance = ReturnType<typeof createInstance>;
type PrismOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

let prism: PrismInstance;
let operations: PrismOperations;
let mock: Mock;

beforeAll(async () => {
  operations = await getHttpOperationsFromSpec(join(packageRoot(), 'spec', 'openapi.yaml'));
  const logger = createLogger('prism-oracle', { enabled: false } as Parameters<typeof createLogger>[1]);
  prism = createInstance(
    {
      mock: { dynamic: false },
      validateRequest: true,
      validateResponse: false,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      isProxy: false,
    } as Parameters<typeof createInstance>[0],
    { logger },
  );
  mock = await createMock();
});

type Verdict = 'no-path' | 'no-method' | 'invalid-input' | 'valid' | 'other';

async function prismVerdict(method: string, path: string): Promise<{ verdict: Verdict; detail: string }> {
  const result = await prism.request(
    { method: method.toLowerCase() as 'get', url: { path }, headers: { ...AUTH } },
    operations,
  )();
  if (result._tag === 'Right') return { verdict: 'valid', detail: String(result.right.output.statusCode) };
  const name = String(result.left.name);
  if (name.endsWith('NO_PATH_MATCHED_ERROR')) return { verdict: 'no-path', detail: name };
  if (name.endsWith('NO_METHOD_MATCHED_ERROR')) return { verdict: 'no-method', detail: name };
  if (name.endsWith('UNPROCESSABLE_ENTITY')) return { verdict: 'invalid-input', detail: name };
  return { verdict: 'other', detail: name };
}

const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const IDS = [
  '1',
  '2',
  '3',
  '12',
  '404',
  '0',
  '-5',
  '01',
  '1.5',
  '1e3',
  'abc',
  '%31',
  '%2D1',
  'true',
  '9'.repeat(17),
  '92233720368547758070',
];
const TAILS = [
  '/store/orders',
  '/store/orders/',
  '/store/orders/',
  '/store/orders/',
  '/pets/',
  '/pets/',
  '/store',
  '/pets',
  '/orders',
  '/store/orders/1/x',
  '/',
];
const METHODS = ['GET', 'GET', 'DELETE', 'DELETE', 'POST', 'PUT', 'PATCH'];

function randomPath(): string {
  const tail = pick(TAILS);
  return tail.endsWith('/') && tail !== '/' ? tail + pick(IDS) : tail;
}

describe('Prism as an oracle for routing and input validation', () => {
  it(`agrees with Prism on ${CASES} seeded requests`, async () => {
    const tally = new Map<string, number>();
    let skipped = 0;
    for (let i = 0; i < CASES; i++) {
      const method = pick(METHODS);
      const tail = randomPath();
      const label = `case ${i} (seed ${SEED}): ${method} /v1${tail}`;
      if (/\d{16,}/.test(tail)) {
        skipped++;
        continue;
      }
      const { verdict, detail } = await prismVerdict(method, tail);
      const response = await mock.handle(
        new Request(`http://mock.test/v1${tail}`, { method, headers: AUTH }),
      );
      const text = await response.text();
      const body = expectConforms(method, `/v1${tail}`, {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text,
      }) as { code?: string } | undefined;
      tally.set(verdict, (tally.get(verdict) ?? 0) + 1);
      switch (verdict) {
        case 'no-path':
          expect([response.status, body?.code], label).toEqual([404, 'not_found']);
          break;
        case 'no-method':
          expect(response.status, label).toBe(405);
          break;
        case 'invalid-input':
          expect(response.status, label).toBe(404);
          expect(['order_not_found', 'not_found'], label).toContain(body?.code);
          break;
        case 'valid': {
          const operation = contract.operations.find(
            (op) =>
              op.method.toUpperCase() === method &&
              new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(tail),
          );
          expect(operation, label).toBeDefined();
          expect(operation?.statuses, label).toContain(response.status);
          break;
        }
        default:
          throw new Error(`${label}: Prism answered ${detail}, which this oracle does not map`);
      }
    }
    // Every kind of verdict came up, so the comparison covered each branch.
    for (const verdict of ['no-path', 'no-method', 'invalid-input', 'valid']) {
      expect(tally.get(verdict) ?? 0, verdict).toBeGreaterThan(5);
    }
    expect(skipped).toBeLessThan(CASES / 4);
  });
});
