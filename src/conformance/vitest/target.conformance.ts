/**
 * The conformance suite as a vitest project, aimed by the environment (see optionsFromEnv):
 *
 *   PETSTORE_BASE_URL=http://127.0.0.1:4010/v1 PETSTORE_API_KEY=petstore-dev-key \
 *     npx vitest run --config src/conformance/vitest.conformance.config.ts
 */
import { describeConformance, optionsFromEnv } from './describe-conformance.js';

describeConformance(() => optionsFromEnv(), {
  name: `petstore conformance against ${process.env.PETSTORE_BASE_URL ?? '(PETSTORE_BASE_URL not set)'}`,
});
