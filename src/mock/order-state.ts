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
 * The lookups of a state machine.
 *
 * @example compileOrderStates(defaultContract().orderStates).transition('pending', 'cancelOrder')?.status // 204
 */
export function compileOrderStates(machine: OrderStateMachine): OrderStateTable {
  const states = Object.keys(machine.states);
  return {
    states,
    isState: (name) => Object.hasOwn(machine.states, name),
    isListed: (state) => machine.states[state]?.listed === true,
    complete: (state) => machine.states[state]?.complete === true,
    transition: (state, operationId) =>
      machine.transitions.find((t) => t.from === state && t.operation === operationId),
  };
}

/**
 * The state machine of a contract.
 *
 * @example orderStatesOf(defaultContract()).isListed('cancelled') // false
 */
export function orderStatesOf(contract: Contract): OrderStateTable {
  return compileOrderStates(contract.orderStates);
}
