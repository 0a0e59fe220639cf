// vite.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // globals: false, vitest's default: hence the cleanup line in src/test/setup.ts
  },
});
