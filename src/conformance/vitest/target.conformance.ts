// The conformance suite as a vitest project aimed by the environment (optionsFromEnv; docs/conformance.md).
import { describeConformance, optionsFromEnv } from './describe-conformance.js';

describeConformance(() => optionsFromEnv(), {
  name: `petstore conformance against ${process.env.PETSTORE_BASE_URL ?? '(PETSTORE_BASE_URL not set)'}`,
});
