/** The checks as a vitest project against PETSTORE_BASE_URL (docs/conformance.md, "As a vitest project"). */
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
