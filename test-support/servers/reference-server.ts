/**
 * A compact, independent implementation of the Orders API for testing the conformance suite (it shares
 * nothing with src/mock). Its behaviour is a set of small replaceable parts: a correct server picks its
 * readings of the open points (D2, D3, D9, D10, D11), and each broken variant in broken-servers.ts
 * replaces exactly one part with a buggy one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifyExactJson } from '../../src/contract/index.js';
import { type RawHandler, type RunningTarget, type ServeOptions, serve } from './serve.js';

/** The key every target accepts. Tests grep all output for it. */
export const TARGET_KEY = 'target-secret-key-5b1e9c';

export type OrderStatus = 'pending' | 'shipped' | 'cancelled';

export interface TargetOrder {
  id: bigint;
  petId: bigint;
  quantity: number;
  status: OrderStatus;
}

/**
 * The orders every target starts from: pending ids above 2^53 prove exact ids pass (D8);
 * 9007199254740996 is exact as a double, so a server reading ids through one confuses 9007199254740997
 * with it (cancel.int64-exact).
 */
export function seedOrders(): TargetOrder[] {
  const order = (id: bigint, status: OrderStatus): TargetOrder => ({ id, petId: 10n, quantity: 1, status });
  return [
    order(1n, 'pending'),
    order(3n, 'pending'),
    order(5n, 'pending'),
    order(7n, 'pending'),
    order(9007199254740993n, 'pending'),
    order(9007199254740996n, 'pending'),
    order(2n, 'shipped'),
    order(4n, 'shipped'),
    order(6n, 'cancelled'),
  ];
}

/**
 * Ids the proof tests hand to the suite: one for each destructive check (3, 5, 7 in priority order) and a
 * spare above 2^53. The malformed ids of a destructive run aim at 7, the last one below 2^53, whose check
 * (auth.cancelOrder.pending-order) has run by then. Order 1 stays out: lenient id parsers land on it.
 */
export const PENDING_IDS = ['3', '5', '7', '9007199254740993'];
export const SHIPPED_IDS = ['2', '4'];

/** How a correct server reads the points the interface spec leaves open. */
export interface Readings {
  /** D2: the answer to cancelling an order a second time. */
  recancel: 404 | 409;
  /** D3: the 409 body, an Error or plain text. */
  shippedBody: 'error' | 'text';
  /** D9: the status for a malformed order id, and whether its body is an Error. */
  malformed: { status: 400 | 404 | 422; body: 'error' | 'other' };
  /** D10: an undocumented method on a documented path. */
  unsupportedMethod: 404 | 405;
  /** D11: whether GET /pets/{petId} is still served. */
  servesPets: boolean;
  /** D15: the exact media type sent. */
  contentType: string;
}

export interface TargetRequest {
  method: string;
  /** The path after `/v1`, or the whole path when it is outside `/v1`. */
  path: string;
  underV1: boolean;
  authorization: string | undefined;
  /** The query string, `?` included, or `''`. */
  query: string;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { raw: (req: IncomingMessage, res: ServerResponse) => void | Promise<void> };

export interface Store {
  orders: TargetOrder[];
  find(id: bigint): TargetOrder | undefined;
}

/** The replaceable parts. Each receives the whole behaviour, so a replaced part is used everywhere. */
export interface Behaviour {
  readings: Readings;
  /** §5, D7: the right key as a bearer token (scheme case-insensitive). */
  authorized(b: Behaviour, authorization: string | undefined): boolean;
  /** D9: the order id of a path segment, `null` when it is not an int64 integer. */
  parseOrderId(b: Behaviour, raw: string): bigint | null;
  /** The whole pipeline: authenticate, then route (D6). */
  handle(b: Behaviour, request: TargetRequest, store: Store): Promise<Reply>;
  listOrders(b: Behaviour, store: Store): Reply;
  cancelOrder(b: Behaviour, raw: string, store: Store): Promise<Reply>;
  /** §3: the state transition of one order. */
  transition(b: Behaviour, order: TargetOrder | undefined, id: bigint): Promise<Reply>;
  getPet(b: Behaviour, raw: string): Reply;
  /** D10: paths and methods outside the document. */
  unknownPath(b: Behaviour, request: TargetRequest): Reply;
  unsupportedMethod(b: Behaviour, allow: string): Reply;
  /** §7, D5: an Error reply. */
  error(b: Behaviour, status: number, code: string, message: string, headers?: Record<string, string>): Reply;
  json(b: Behaviour, status: number, body: unknown, headers?: Record<string, string>): Reply;
}

const INT64 = /^-?(0|[1-9][0-9]*)$/;

/** A path segment decoded; one with a broken escape (`%E0%A4%A`) stays as sent, and names nothing. */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
const PET_HEADERS = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' };

export const CORRECT: Omit<Behaviour, 'readings'> = {
  authorized(_b, authorization) {
    const match = /^bearer +(\S+)$/i.exec(authorization ?? '');
    return match?.[1] === TARGET_KEY;
  },
  parseOrderId(_b, raw) {
    if (!INT64.test(raw)) return null;
    const id = BigInt(raw);
    return id < -(2n ** 63n) || id > 2n ** 63n - 1n ? null : id;
  },
  async handle(b, request, store) {
    if (!b.authorized(b, request.authorization)) {
      return b.error(b, 401, 'unauthorized', 'Missing or invalid API key.', { 'www-authenticate': 'Bearer' });
    }
    if (!request.underV1) return b.unknownPath(b, request);
    const orderPath = /^\/store\/orders\/([^/]+)$/.exec(request.path);
    const petPath = /^\/pets\/([^/]+)$/.exec(request.path);
    if (request.path === '/store/orders') {
      return request.method === 'GET' ? b.listOrders(b, store) : b.unsupportedMethod(b, 'GET');
    }
    if (orderPath?.[1] !== undefined) {
      return request.method === 'DELETE'
        ? b.cancelOrder(b, decodeSegment(orderPath[1]), store)
        : b.unsupportedMethod(b, 'DELETE');
    }
    if (petPath?.[1] !== undefined && b.readings.servesPets) {
      return request.method === 'GET'
        ? b.getPet(b, decodeSegment(petPath[1]))
        : b.unsupportedMethod(b, 'GET');
    }
    return b.unknownPath(b, request);
  },
  listOrders(b, store) {
    const listed = store.orders
      .filter((o) => o.status !== 'cancelled')
      .map((o) => ({ id: o.id, petId: o.petId, quantity: o.quantity, complete: o.status === 'shipped' }));
    return b.json(b, 200, listed);
  },
  async cancelOrder(b, raw, store) {
    const id = b.parseOrderId(b, raw);
    if (id === null) {
      const { status, body } = b.readings.malformed;
      return body === 'error'
        ? b.error(b, status, 'invalid_order_id', `orderId must be an int64 integer, got ${raw}`)
        : b.json(b, status, { detail: [{ loc: ['path', 'orderId'], msg: 'value is not a valid integer' }] });
    }
    return b.transition(b, store.find(id), id);
  },
  async transition(b, order, id) {
    if (!order) return b.error(b, 404, 'order_not_found', `No order has id ${id}.`);
    if (order.status === 'cancelled') {
      return b.readings.recancel === 404
        ? b.error(b, 404, 'order_not_found', `No order has id ${id}.`)
        : b.error(b, 409, 'order_cancelled', `Order ${id} is already cancelled.`);
    }
    if (order.status === 'shipped') {
      return b.readings.shippedBody === 'error'
        ? b.error(b, 409, 'order_already_shipped', `Order ${id} has shipped.`)
        : {
            status: 409,
            headers: { 'content-type': 'text/plain' },
            body: `Order ${id} has already shipped.`,
          };
    }
    order.status = 'cancelled';
    return { status: 204 };
  },
  getPet(b, raw) {
    const id = b.parseOrderId(b, raw);
    if (id !== 10n) return b.error(b, 404, 'not_found', `No pet has id ${raw}.`, PET_HEADERS);
    return b.json(b, 200, { id: 10, name: 'Rex' }, PET_HEADERS);
  },
  unknownPath(b) {
    return b.error(b, 404, 'not_found', 'No such path.');
  },
  unsupportedMethod(b, allow) {
    return b.readings.unsupportedMethod === 405
      ? b.error(b, 405, 'method_not_allowed', 'Method not allowed.', { allow })
      : b.error(b, 404, 'not_found', 'No such route.');
  },
  error(b, status, code, message, headers = {}) {
    return b.json(b, status, { code, message, status }, headers);
  },
  json(b, status, body, headers = {}) {
    return {
      status,
      headers: { 'content-type': b.readings.contentType, ...headers },
      body: stringifyExactJson(body),
    };
  },
};

/** The mock's readings: 404 on re-cancel, Error bodies everywhere, 405 with Allow, pets served. */
export const MOCK_LIKE_READINGS: Readings = {
  recancel: 404,
  shippedBody: 'error',
  malformed: { status: 404, body: 'error' },
  unsupportedMethod: 405,
  servesPets: true,
  contentType: 'application/json',
};

export function behaviour(readings: Readings, parts: Partial<Omit<Behaviour, 'readings'>> = {}): Behaviour {
  return { ...CORRECT, ...parts, readings };
}

/** A store over these orders (the seeds by default); tests that look at the state after a run pass one. */
export function createStore(orders: TargetOrder[] = seedOrders()): Store {
  return { orders, find: (id) => orders.find((o) => o.id === id) };
}

/** Starts a target with this behaviour on a free port (over https when `options.tls` is given). */
export async function startTarget(
  b: Behaviour,
  store: Store = createStore(),
  options: ServeOptions = {},
): Promise<RunningTarget> {
  return serve(targetHandler(b, store), options);
}

/** The target as a socket handler, for servers that put something in front of it (gateways.ts). */
export function targetHandler(b: Behaviour, store: Store = createStore()): RawHandler {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://target.invalid');
    const underV1 = url.pathname === '/v1' || url.pathname.startsWith('/v1/');
    const request: TargetRequest = {
      method: req.method ?? 'GET',
      path: underV1 ? url.pathname.slice(3) : url.pathname,
      underV1,
      authorization: req.headers.authorization,
      query: url.search,
    };
    const reply = await b.handle(b, request, store);
    if ('raw' in reply) {
      await reply.raw(req, res);
      return;
    }
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? '');
  };
}
