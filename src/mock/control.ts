/**
 * The `/__mock/` control endpoints, for tests and developers: each reads its request and writes its JSON;
 * what it does is a function of control-operations.ts. No fault and no `Prefer` applies to them.
 */
import { type Contract, type ExactJson, parseExactJson, stringifyExactJson } from '../contract/index.js';
import { type MockSettings, planFault, putOrder, sessionNames, setDelay } from './control-operations.js';
import { mockError } from './errors.js';
import { faultRuleJson } from './faults.js';
import { type OrderStateTable, orderStatesOf } from './order-state.js';
import { orderJson, type StoredOrder } from './order-store.js';
import type { CoreRequest } from './request.js';
import { type CoreResponse, errorResponse, jsonResponse } from './responses.js';
import type { Session, Sessions } from './sessions.js';

export type { MockSettings } from './control-operations.js';

export type ControlName =
  | 'reset'
  | 'state'
  | 'putOrder'
  | 'requests'
  | 'listFaults'
  | 'addFault'
  | 'clearFaults'
  | 'getDelay'
  | 'putDelay'
  | 'sessions';

export const CONTROL_BASE = '/__mock';

export const CONTROL_ROUTES: ReadonlyArray<{ method: string; path: string; name: ControlName }> = [
  { method: 'POST', path: `${CONTROL_BASE}/reset`, name: 'reset' },
  { method: 'GET', path: `${CONTROL_BASE}/state`, name: 'state' },
  { method: 'PUT', path: `${CONTROL_BASE}/orders/{id}`, name: 'putOrder' },
  { method: 'GET', path: `${CONTROL_BASE}/requests`, name: 'requests' },
  { method: 'GET', path: `${CONTROL_BASE}/faults`, name: 'listFaults' },
  { method: 'POST', path: `${CONTROL_BASE}/faults`, name: 'addFault' },
  { method: 'DELETE', path: `${CONTROL_BASE}/faults`, name: 'clearFaults' },
  { method: 'GET', path: `${CONTROL_BASE}/delay`, name: 'getDelay' },
  { method: 'PUT', path: `${CONTROL_BASE}/delay`, name: 'putDelay' },
  { method: 'GET', path: `${CONTROL_BASE}/sessions`, name: 'sessions' },
];

export interface ControlContext {
  request: CoreRequest;
  session: Session;
  sessions: Sessions;
  params: Readonly<Record<string, string>>;
  settings: MockSettings;
  /** The contract the mock serves: its operations (for faults) and its Order schema (for put orders). */
  contract: Contract;
}

const decoder = new TextDecoder();

/** An order as the control endpoints show it: the published Order plus its internal `state`. */
export function controlOrderJson(order: StoredOrder, states: OrderStateTable): string {
  return `${orderJson(order, states).slice(0, -1)},"state":${JSON.stringify(order.state)}}`;
}

function stateJson(session: Session, sessions: Sessions): string {
  const states = sessions.fixtures.orders.states;
  const orders = [...session.orders.all()].map((order) => controlOrderJson(order, states)).join(',');
  const pets = [...sessions.fixtures.pets.values()].map((pet) => pet.json).join(',');
  const fixtures = sessions.fixtures;
  return `{"session":${JSON.stringify(session.name)},"fixtures":${JSON.stringify(fixtures.source)},"fixturesDescription":${JSON.stringify(fixtures.description ?? null)},"states":${JSON.stringify(states.states)},"orders":[${orders}],"pets":[${pets}],"petsDeprecation":${JSON.stringify(fixtures.deprecationHeader)},"petsSunset":${JSON.stringify(fixtures.sunsetHeader)}}`;
}

function invalid(message: string, session: Session): CoreResponse {
  return errorResponse(mockError('invalidRequest', { message }), session);
}

function faultsJson(session: Session, settings: MockSettings): string {
  return stringifyExactJson({
    session: session.name,
    delayMs: settings.delayMs,
    faults: session.faults.list().map(faultRuleJson),
  });
}

/** The body of a control request as exact JSON; an empty or broken body reads as `undefined`. */
function jsonBody(request: CoreRequest): ExactJson | undefined {
  const parsed = parseExactJson(request.body === undefined ? '' : decoder.decode(request.body));
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Answers one control endpoint.
 *
 * @example handleControl('state', context) // 200 {"session":"default","orders":[…],…}
 */
export function handleControl(name: ControlName, context: ControlContext): CoreResponse {
  const { session, sessions } = context;
  switch (name) {
    case 'listFaults':
      return jsonResponse(200, faultsJson(session, context.settings), session);
    case 'addFault': {
      const rule = planFault(context.contract, session, jsonBody(context.request));
      if (!rule.ok) return invalid(rule.error, session);
      const { delayMs } = context.settings;
      const body = { session: session.name, delayMs, fault: faultRuleJson(rule.value) };
      return jsonResponse(201, stringifyExactJson(body), session);
    }
    case 'clearFaults':
      session.faults.clear();
      return jsonResponse(200, faultsJson(session, context.settings), session);
    case 'getDelay':
      return jsonResponse(200, `{"delayMs":${context.settings.delayMs}}`, session);
    case 'putDelay': {
      const delay = setDelay(context.settings, jsonBody(context.request));
      if (!delay.ok) return invalid(delay.error, session);
      return jsonResponse(200, `{"delayMs":${delay.value}}`, session);
    }
    case 'sessions':
      return jsonResponse(200, JSON.stringify({ sessions: sessionNames(sessions) }), session);
    case 'reset': {
      const fresh = sessions.reset(session.name);
      return jsonResponse(200, stateJson(fresh, sessions), fresh);
    }
    case 'state':
      return jsonResponse(200, stateJson(session, sessions), session);
    case 'putOrder': {
      const put = putOrder(context.contract, session, context.params.id ?? '', jsonBody(context.request));
      if (!put.ok) return invalid(put.error, session);
      return jsonResponse(
        put.value.created ? 201 : 200,
        controlOrderJson(put.value.order, orderStatesOf(context.contract)),
        session,
      );
    }
    case 'requests':
      return jsonResponse(
        200,
        stringifyExactJson({
          session: session.name,
          capacity: session.log.capacity,
          keylessCapacity: session.log.keyless?.capacity ?? 0,
          requests: session.log.entries(),
        }),
        session,
      );
  }
}
