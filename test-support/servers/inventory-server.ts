/**
 * A small server for the inventory draft (test-support/contracts/inventory-draft.ts), written by hand
 * like a team implementing that document would: the key on every route, `limit` read and bounded,
 * `GET /store/inventory`. Each broken part is one flag, so a test shows which generic check catches it.
 */
import type { ServerResponse } from 'node:http';
import { type RunningTarget, serve } from './serve.js';

export interface InventoryFaults {
  /** `GET /store/inventory` answers 200 without checking the key. */
  inventoryWithoutKey?: boolean;
  /** `?limit=0` (below the minimum) crashes the handler: 500. */
  limitZeroCrashes?: boolean;
  /** `?limit=abc` is ignored: 200 with the whole list. */
  limitTextAccepted?: boolean;
}

const ORDERS = [
  { id: 1, petId: 10, quantity: 1, complete: false },
  { id: 2, petId: 11, quantity: 3, complete: true },
];

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { code, message, status });
}

/** `null` when the text is a valid limit (absent, or a whole number from 1 to 100), else why not. */
function limitProblem(text: string | null, faults: InventoryFaults): 'invalid' | 'crash' | null {
  if (text === null) return null;
  if (!/^[0-9]+$/.test(text)) return faults.limitTextAccepted ? null : 'invalid';
  const value = Number(text);
  if (value === 0 && faults.limitZeroCrashes) return 'crash';
  return value >= 1 && value <= 100 ? null : 'invalid';
}

/** Serves the inventory draft below `/v1`, accepting `key`, with the given faults. */
export function startInventoryServer(key: string, faults: InventoryFaults = {}): Promise<RunningTarget> {
  return serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://target');
    const authorized = req.headers.authorization === `Bearer ${key}`;
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /v1/store/inventory') {
      if (!authorized && !faults.inventoryWithoutKey)
        return error(res, 401, 'unauthorized', 'a valid key is required');
      return send(res, 200, { pending: 1, shipped: 1 });
    }
    if (route === 'GET /v1/store/orders') {
      if (!authorized) return error(res, 401, 'unauthorized', 'a valid key is required');
      const problem = limitProblem(url.searchParams.get('limit'), faults);
      if (problem === 'crash') return error(res, 500, 'internal', 'limit 0');
      if (problem === 'invalid') return error(res, 400, 'invalid_parameter', 'limit must be from 1 to 100');
      const limit = Number(url.searchParams.get('limit'));
      return send(res, 200, Number.isInteger(limit) && limit > 0 ? ORDERS.slice(0, limit) : ORDERS);
    }
    return error(res, 404, 'not_found', 'no such route');
  });
}
