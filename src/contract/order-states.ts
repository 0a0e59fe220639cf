/** The state table of `x-petstore-order-states` (§3, D1–D3), compiled once for the mock, the observer and the checks. */
import type { Contract, OrderStateMachine, TransitionSpec } from './model.js';

/** The lookups of the state table. */
export interface StateTable {
  /** State names in document order. */
  readonly states: readonly string[];
  isState(name: string): boolean;
  /** Whether an order in this state is listed (D2). */
  isListed(state: string): boolean;
  /** The `complete` value published for an order in this state (D1). */
  complete(state: string): boolean;
  transition(state: string, operationId: string): TransitionSpec | undefined;
}

/**
 * The table of a state machine.
 *
 * @example compileStateTable(contract.orderStates).transition('pending', 'cancelOrder')?.status // 204
 */
export function compileStateTable(machine: OrderStateMachine): StateTable {
  return {
    states: Object.keys(machine.states),
    isState: (name) => Object.hasOwn(machine.states, name),
    isListed: (state) => machine.states[state]?.listed === true,
    complete: (state) => machine.states[state]?.complete === true,
    transition: (state, operationId) =>
      machine.transitions.find((t) => t.from === state && t.operation === operationId),
  };
}

/** @example stateTable(defaultContract()).isListed('cancelled') // false */
export function stateTable(contract: Contract): StateTable {
  return compileStateTable(contract.orderStates);
}

/** The cancel rows of the table, as the judge asks them. */
export interface CancelRows {
  /** Statuses that move an order to another state (204). */
  moves: ReadonlySet<number>;
  /** The states an answer leaves the order in (204 → cancelled, 409 → shipped). */
  statesAfter(status: number): readonly string[];
  /** The states whose cancel answers this status. */
  statesBefore(status: number): readonly string[];
  /** The statuses a cancel of an order in this state answers. */
  answers(state: string): number[];
  /** Whether an order in one of `states` may answer `status`; only moves are judged (D2 allows 404 or 409). */
  allows(states: readonly string[], status: number): boolean;
  /** The status that refuses a listed order and keeps it (409). */
  refusal: number | null;
  table: StateTable;
}

/** @example cancelRows(contract).statesAfter(409) // ['shipped'] */
export function cancelRows(contract: Contract): CancelRows {
  const table = stateTable(contract);
  const rows = contract.orderStates.transitions.filter((t) => t.operation === 'cancelOrder');
  const unique = (values: string[]) => [...new Set(values)];
  const moves = new Set(rows.filter((t) => t.from !== t.to).map((t) => t.status));
  return {
    moves,
    statesAfter: (status) => unique(rows.filter((t) => t.status === status).map((t) => t.to)),
    statesBefore: (status) => unique(rows.filter((t) => t.status === status).map((t) => t.from)),
    answers: (state) => rows.filter((t) => t.from === state).map((t) => t.status),
    allows: (from, status) =>
      !moves.has(status) || rows.some((t) => from.includes(t.from) && t.status === status),
    refusal: rows.find((t) => t.from === t.to && table.isListed(t.from))?.status ?? null,
    table,
  };
}
