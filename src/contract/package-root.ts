import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding `spec/openapi.yaml`, found walking up: from `src/` (tests) or `dist/src/` alike. */
export function packageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'spec', 'openapi.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`spec/openapi.yaml not found in any folder above ${start}`);
  }
}
