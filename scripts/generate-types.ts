/**
 * Generates `src/generated/openapi.ts` from `spec/openapi.yaml` with openapi-typescript.
 *
 *   tsx scripts/generate-types.ts          rewrites the committed file
 *   tsx scripts/generate-types.ts --check  exits 1 when the committed file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { DOCUMENT_PATH, packageRoot } from '../src/contract/package-root.js';

const OUTPUT = join(packageRoot(), 'src', 'generated', 'openapi.ts');
const HEADER = `/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, by openapi-typescript. Regenerate with \`npm run generate\`;
 * \`npm test\` fails while this file differs from a fresh generation.
 */

`;

async function generate(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(DOCUMENT_PATH));
  return HEADER + astToString(ast);
}

const fresh = await generate();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(OUTPUT, 'utf8');
  } catch {
    // A missing file is drift like any other.
  }
  if (committed !== fresh) {
    process.stderr.write(
      'src/generated/openapi.ts is out of date with spec/openapi.yaml. Run `npm run generate` and commit the result.\n',
    );
    process.exit(1);
  }
  process.stdout.write('generated types match spec/openapi.yaml\n');
} else {
  writeFileSync(OUTPUT, fresh);
  process.stdout.write('wrote src/generated/openapi.ts\n');
}
