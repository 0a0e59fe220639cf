/** Runs the whole suite, destructive checks included, against a test target started for the run. */
import { runConformance } from '../runner.js';
import type { ConformanceResult } from '../types.js';
import { type Behaviour, PENDING_IDS, SHIPPED_IDS, startTarget, TARGET_KEY } from './reference-server.js';

export async function runSuiteAgainst(behaviour: Behaviour, timeoutMs = 5_000): Promise<ConformanceResult> {
  const target = await startTarget(behaviour);
  try {
    return await runConformance({
      baseUrl: target.baseUrl,
      apiKey: TARGET_KEY,
      pendingOrders: PENDING_IDS,
      shippedOrders: SHIPPED_IDS,
      destructive: true,
      timeoutMs,
    });
  } finally {
    await target.close();
  }
}
