/**
 * Generates the files of `src/generated/` from the sources they copy:
 *
 * - `openapi.ts`: the API's types, from `spec/openapi.yaml` by openapi-typescript;
 * - `document.ts`: the document itself as data, so the contract module needs no file system (browsers);
 * - `fixtures-schema.ts`: the fixture file's JSON Schema, `fixtures/fixtures.schema.json`, likewise.
 *
 *   tsx scripts/generate-types.ts          rewrites the committed files
 *   tsx scripts/generate-types.ts --check  exits 1 when a committed file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse as parseYaml } from 'yaml';
import { DOCUMENT_PATH, packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();
const GENERATED = join(ROOT, 'src', 'generated');
const FIXTURES_SCHEMA_PATH = join(ROOT, 'fixtures', 'fixtures.schema.json');

function header(source: string, how: string): string {
  return `/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: ${source}, ${how}. Regenerate with \`npm run generate\`;
 * \`npm test\` fails while this file differs from a fresh generation.
 */

`;
}

/**
 * A JSON value as a TypeScript constant. Numbers are doubles on both sides, exact up to 2^53; a larger
 * integer in a source would already be rounded by its parser, so the generation refuses it.
 */
function dataModule(source: string, name: string, doc: string, value: unknown): string {
  const json = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === 'number' && Number.isInteger(item) && Math.abs(item) > 2 ** 53) {
        throw new Error(`${source} holds ${item}, beyond 2^53: write it as a string or keep it below`);
      }
      return item;
    },
    2,
  );
  return `${header(source, 'copied as data')}/** ${doc} */
export const ${name}: Readonly<Record<string, unknown>> = ${json};
`;
}

async function generate(): Promise<Map<string, string>> {
  const ast = await openapiTS(pathToFileURL(DOCUMENT_PATH));
  const files = new Map<string, string>();
  files.set('openapi.ts', header('spec/openapi.yaml', 'by openapi-typescript') + astToString(ast));
  files.set(
    'document.ts',
    dataModule(
      'spec/openapi.yaml',
      'DOCUMENT',
      'The OpenAPI document as authored, parsed.',
      parseYaml(readFileSync(DOCUMENT_PATH, 'utf8')),
    ),
  );
  files.set(
    'fixtures-schema.ts',
    dataModule(
      'fixtures/fixtures.schema.json',
      'FIXTURES_SCHEMA',
      'The JSON Schema of a fixture file.',
      JSON.parse(readFileSync(FIXTURES_SCHEMA_PATH, 'utf8')),
    ),
  );
  return files;
}

const fresh = await generate();
if (process.argv.includes('--check')) {
  const stale = [...fresh].filter(([name, text]) => {
    try {
      return readFileSync(join(GENERATED, name), 'utf8') !== text;
    } catch {
      return true; // A missing file is drift like any other.
    }
  });
  if (stale.length > 0) {
    const names = stale.map(([name]) => `src/generated/${name}`).join(', ');
    process.stderr.write(
      `${names} out of date with spec/openapi.yaml or fixtures/fixtures.schema.json. Run \`npm run generate\` and commit the result.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('src/generated/ matches spec/openapi.yaml and fixtures/fixtures.schema.json\n');
} else {
  for (const [name, text] of fresh) writeFileSync(join(GENERATED, name), text);
  process.stdout.write(`wrote ${[...fresh.keys()].map((name) => `src/generated/${name}`).join(', ')}\n`);
}
