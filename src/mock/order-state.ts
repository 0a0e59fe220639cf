/** The order state machine (§3, D1–D3), compiled once in the contract: the mock decides no transition itself. */
export {
  compileStateTable as compileOrderStates,
  type StateTable as OrderStateTable,
  stateTable as orderStatesOf,
} from '../contract/index.js';

/** A state name of the table: `pending`, `shipped`, `cancelled`. */
export type OrderState = string;
