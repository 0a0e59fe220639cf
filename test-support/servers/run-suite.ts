/** Runs the suite against a test target started for the run, with the proof ids. */

import type { ConformanceOptions } from '../../src/conformance/options.js';
import { runConformance } from '../../src/conformance/runner.js';
import type { ConformanceResult } from '../../src/judge/types.js';
import {
  type Behaviour,
  createStore,
  PENDING_IDS,
  SHIPPED_IDS,
  type Store,
  startTarget,
  TARGET_KEY,
} from './reference-server.js';

/** The fuzz seed of the proof runs. */
export const PROOF_SEED = 20_260_101;

/**
 * The whole suite, destructive checks included unless `options` says otherwise, against `behaviour` over
 * `store` (the seeds by default); the target is closed afterwards.
 *
 * @example await runSuiteAgainst(CORRECT, { destructive: false })
 */
export async function runSuiteAgainst(
  behaviour: Behaviour,
  options: Partial<ConformanceOptions> = {},
  store: Store = createStore(),
): Promise<ConformanceResult> {
  const target = await startTarget(behaviour, store);
  try {
    return await runConformance({
      baseUrl: target.baseUrl,
      apiKey: TARGET_KEY,
      pendingOrders: PENDING_IDS,
      shippedOrders: SHIPPED_IDS,
      destructive: true,
      timeoutMs: 5_000,
      // The two list reads before the checks, close together: these targets have no other client unless a
      // test gives them one.
      liveProbeMs: 10,
      // A fixed seed keeps the fuzz phase's requests the same on every run of the proof tests.
      seed: PROOF_SEED,
      ...options,
    });
  } finally {
    await target.close();
  }
}
