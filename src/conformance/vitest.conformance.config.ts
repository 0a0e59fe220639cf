/**
 * A vitest project that runs the conformance checks against the server named by PETSTORE_BASE_URL, one
 * test per check (docs/conformance.md, "As a vitest project"). Not part of the repository's own test run.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'conformance',
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['src/conformance/vitest/*.conformance.ts'],
    testTimeout: 30_000,
    hookTimeout: 600_000,
  },
});
