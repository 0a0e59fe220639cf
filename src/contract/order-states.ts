/** The state table of `x-petstore-order-states` (§3, D1–D3), compiled once for the mock, the observer and the checks. */
import type { Contract, TransitionSpec } from './model.js';

export type StateTable = ReturnType<typeof stateTable>;

/** @example stateTable(defaultContract()).transition('pending', 'cancelOrder')?.status // 204 */
export function stateTable({ orderStates: machine }: Pick<Contract, 'orderStates'>) {
  return {
    states: Object.keys(machine.states) as readonly string[],
    isState: (name: string) => Object.hasOwn(machine.states, name),
    isListed: (state: string) => machine.states[state]?.listed === true,
    complete: (state: string) => machine.states[state]?.complete === true,
    transition: (state: string, operationId: string): TransitionSpec | undefined =>
      machine.transitions.find((t) => t.from === state && t.operation === operationId),
  };
}

export type CancelRows = ReturnType<typeof cancelRows>;

/** The cancel rows of the table, as the judge asks them: `cancelRows(contract).statesAfter(409) // ['shipped']`. */
export function cancelRows(contract: Contract) {
  const table = stateTable(contract);
  const rows = contract.orderStates.transitions.filter((t) => t.operation === 'cancelOrder');
  const unique = (values: string[]): readonly string[] => [...new Set(values)];
  const moves: ReadonlySet<number> = new Set(rows.filter((t) => t.from !== t.to).map((t) => t.status));
  return {
    moves,
    statesAfter: (status: number) => unique(rows.filter((t) => t.status === status).map((t) => t.to)),
    statesBefore: (status: number) => unique(rows.filter((t) => t.status === status).map((t) => t.from)),
    answers: (state: string) => rows.filter((t) => t.from === state).map((t) => t.status),
    /** Only moves are judged: D2 allows 404 or 409 for an order in no listed state. */
    allows: (states: readonly string[], status: number) =>
      !moves.has(status) || rows.some((t) => states.includes(t.from) && t.status === status),
    /** The status that refuses a listed order and keeps it (409). */
    refusal: rows.find((t) => t.from === t.to && table.isListed(t.from))?.status ?? null,
    table,
  };
}
