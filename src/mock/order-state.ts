/**
 * The order state machine, read from the document's `x-petstore-order-states` table (§3, D1–D3). The
 * mock never decides a transition with its own `if`s: it looks the pair (state, operation) up here, so
 * the document, the docs and the mock cannot disagree.
 */
import type { Contract, OrderStateMachine, TransitionSpec } from '../contract/index.js';

/** A state name of the table: `pending`, `shipped`, `cancelled`. */
export type OrderState = string;

export interface OrderStateTable {
  /** State names in document order. */
  readonly states: readonly OrderState[];
  isState(name: string): boolean;
  /** Whether an order in this state appears in `GET /store/orders` (D2). */
  isListed(state: OrderState): boolean;
  /** The `complete` value published for an order in this state (D1). */
  complete(state: OrderState): boolean;
  /** The transition an operation causes from a state, or `undefined` when the table has none. */
  transition(state: OrderState, operationId: string): TransitionSpec | undefined;
}

/**
 * Compiles a state machine into lookups.
 *
 * @example compileOrderStates(defaultContract().orderStates).transition('pending', 'cancelOrder')?.status // 204
 */
export function compileOrderStates(machine: OrderStateMachine): OrderStateTable {
  const states = Object.keys(machine.states);
  // By state, then operation: looked up on every cancel, so no key string is built per request.
  const transitions = new Map<OrderState, Map<string, TransitionSpec>>();
  for (const transition of machine.transitions) {
    let byOperation = transitions.get(transition.from);
    if (!byOperation) {
      byOperation = new Map();
      transitions.set(transition.from, byOperation);
    }
    byOperation.set(transition.operation, transition);
  }
  return {
    states,
    isState: (name) => Object.hasOwn(machine.states, name),
    isListed: (state) => machine.states[state]?.listed === true,
    complete: (state) => machine.states[state]?.complete === true,
    transition: (state, operationId) => transitions.get(state)?.get(operationId),
  };
}

const compiled = new WeakMap<Contract, OrderStateTable>();

/**
 * The state machine of a contract, compiled once per contract.
 *
 * @example orderStatesOf(defaultContract()).isListed('cancelled') // false
 */
export function orderStatesOf(contract: Contract): OrderStateTable {
  let table = compiled.get(contract);
  if (!table) {
    table = compileOrderStates(contract.orderStates);
    compiled.set(contract, table);
  }
  return table;
}
