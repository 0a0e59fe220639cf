/** The state table of `x-petstore-order-states` (§3, D1–D3), compiled once for the mock, the observer and the checks. */
import type { Contract, OrderStateMachine, TransitionSpec } from './model.js';

/** The lookups of the state table: states in document order, whether listed (D2), `complete` (D1), moves. */
export type StateTable = ReturnType<typeof compileStateTable>;

/** @example compileStateTable(contract.orderStates).transition('pending', 'cancelOrder')?.status // 204 */
export function compileStateTable(machine: OrderStateMachine) {
  return {
    states: Object.keys(machine.states) as readonly string[],
    isState: (name: string) => Object.hasOwn(machine.states, name),
    isListed: (state: string) => machine.states[state]?.listed === true,
    complete: (state: string) => machine.states[state]?.complete === true,
    transition: (state: string, operationId: string): TransitionSpec | undefined =>
      machine.transitions.find((t) => t.from === state && t.operation === operationId),
  };
}

/** @example stateTable(defaultContract()).isListed('cancelled') // false */
export function stateTable(contract: Contract): StateTable {
  return compileStateTable(contract.orderStates);
}

/** The cancel rows of the table, as the judge asks them. */
export type CancelRows = ReturnType<typeof cancelRows>;

/** @example cancelRows(contract).statesAfter(409) // ['shipped'] */
export function cancelRows(contract: Contract) {
  const table = stateTable(contract);
  const rows = contract.orderStates.transitions.filter((t) => t.operation === 'cancelOrder');
  const unique = (values: string[]): readonly string[] => [...new Set(values)];
  const moves: ReadonlySet<number> = new Set(rows.filter((t) => t.from !== t.to).map((t) => t.status));
  return {
    /** Statuses that move an order to another state (204). */
    moves,
    /** The states an answer leaves the order in (204 → cancelled, 409 → shipped). */
    statesAfter: (status: number) => unique(rows.filter((t) => t.status === status).map((t) => t.to)),
    statesBefore: (status: number) => unique(rows.filter((t) => t.status === status).map((t) => t.from)),
    answers: (state: string) => rows.filter((t) => t.from === state).map((t) => t.status),
    /** Whether an order in one of `states` may answer `status`; only moves are judged (D2 allows 404 or 409). */
    allows: (states: readonly string[], status: number) =>
      !moves.has(status) || rows.some((t) => states.includes(t.from) && t.status === status),
    /** The status that refuses a listed order and keeps it (409). */
    refusal: rows.find((t) => t.from === t.to && table.isListed(t.from))?.status ?? null,
    table,
  };
}
