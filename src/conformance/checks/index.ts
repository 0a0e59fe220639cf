/** Every check of the suite, in run order; docs/conformance.md lists the same table, kept in step by a test. */

import { FUZZ_CHECKS } from '../fuzz/phase.js';
import { AUTH_CHECKS } from './auth.js';
import { CANCEL_CHECKS } from './cancel.js';
import type { Check } from './check.js';
import { LIST_CHECKS } from './list.js';
import { PETS_CHECKS } from './pets.js';
import { ROUTE_CHECKS } from './routes.js';
import { SWEEP_CHECKS } from './sweep.js';

export type { Check, Requirements } from './check.js';
export { genericChecks } from './generic.js';

// Sweeps run last whatever their place here.
export const CHECKS: readonly Check[] = [
  ...LIST_CHECKS,
  ...AUTH_CHECKS,
  ...CANCEL_CHECKS,
  ...ROUTE_CHECKS,
  ...PETS_CHECKS,
  ...FUZZ_CHECKS,
  ...SWEEP_CHECKS,
];

/** Which checks receive pending ids first when there are not enough for all. */
export const PENDING_PRIORITY: readonly string[] = [
  'cancel.pending-order',
  'cancel.concurrent',
  'auth.cancelOrder.pending-order',
];
