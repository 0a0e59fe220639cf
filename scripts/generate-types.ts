/**
 * Generates the files of `src/generated/` from the sources they copy:
 *
 * - `openapi.ts`: the API's types, from `spec/openapi.yaml` by openapi-typescript, every int64 typed as the
 *   exact decimal string the typed client hands over (D17);
 * - `int64-locations.ts`: where each response body holds int64 values, which the typed client needs at run
 *   time to hand exactly those over as strings (D17);
 * - `document.ts`: the document itself as data, so the contract module needs no file system (browsers),
 *   without the descriptions no code reads (`without-prose.ts`), which a page would otherwise download;
 * - `fixtures-schema.ts`: the fixture file's JSON Schema, `fixtures/fixtures.schema.json`, likewise;
 * - `validators.ts` and `fixtures-validator.ts`: Ajv's standalone code for the document's schemas and the
 *   fixture file's (`scripts/generate-validators.ts`), so the built-in contract runs no `new Function`.
 *   Besides drifting, they fail the check when they hold a `require(`, `Function(` or `eval(`.
 * - `default-fixtures.ts`: the default fixtures, `fixtures/default.yaml`, as data with exact decimal-string
 *   ids, for `petstore-contract-toolkit/fixtures`.
 *
 *   tsx scripts/generate-types.ts          rewrites the committed files
 *   tsx scripts/generate-types.ts --check  exits 1 when a committed file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, {
  astToString,
  type OpenAPI3,
  type SchemaObject,
  type TransformNodeOptions,
} from 'openapi-typescript';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../src/contract/package-root.js';
import type { JsonObject } from '../src/contract/refs.js';
import { defaultFixturesJson } from './default-fixtures.js';
import { contractValidatorsModule, fixturesValidatorModule, forbiddenIn } from './generate-validators.js';
import { int64Locations } from './int64-locations.js';
import { withoutProse } from './without-prose.js';

const ROOT = packageRoot();
const GENERATED = join(ROOT, 'src', 'generated');
const FIXTURES_SCHEMA_PATH = join(ROOT, 'fixtures', 'fixtures.schema.json');
const DEFAULT_FIXTURES_FILE = join(ROOT, 'fixtures', 'default.yaml');

/**
 * The document with its integers exact. An integer beyond 2^53 is handed over as its digits (a string):
 * openapi-typescript copies the document with `JSON.stringify`, which takes no bigint, and a double would
 * round 9007199254740993 to 9007199254740992 in the generated comments and data.
 */
function readDocument(): OpenAPI3 {
  return parseYaml(
    readFileSync(join(ROOT, 'spec', 'openapi.yaml'), 'utf8'),
    (_key, value) => {
      if (typeof value !== 'bigint') return value;
      return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
    },
    { intAsBigInt: true },
  ) as OpenAPI3;
}

const { factory } = ts;

/** `${bigint}`: a string that holds an integer, written in decimal. */
const DECIMAL_STRING = factory.createTemplateLiteralType(factory.createTemplateHead(''), [
  factory.createTemplateLiteralTypeSpan(
    factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword),
    factory.createTemplateTail(''),
  ),
]);
const DECIMAL_STRING_OR_BIGINT = factory.createUnionTypeNode([
  DECIMAL_STRING,
  factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword),
]);

/** int64 values read from a body are decimal strings; an int64 the caller sends in a path may also be a bigint. */
function int64Type(schema: SchemaObject, { path }: TransformNodeOptions): ts.TypeNode | undefined {
  if (!('format' in schema) || schema.format !== 'int64') return undefined;
  return path?.includes('/parameters/') ? DECIMAL_STRING_OR_BIGINT : DECIMAL_STRING;
}

const INT64_NOTE = ` *
 * int64 values (format int64) are typed as exact decimal strings, \`\${bigint}\`: that is how the typed
 * client (petstore-contract-toolkit/client) hands them over, because a JavaScript number cannot hold every
 * int64 (D8, D17). Path parameters also take a bigint.
`;

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
  const document = readDocument();
  const ast = await openapiTS(document, { transform: int64Type });
  const files = new Map<string, string>();
  files.set(
    'openapi.ts',
    header('spec/openapi.yaml', 'by openapi-typescript').replace(' */\n', `${INT64_NOTE} */\n`) +
      astToString(ast),
  );
  files.set(
    'int64-locations.ts',
    `${header('spec/openapi.yaml', 'by scripts/int64-locations.ts')}/** \`true\`: an int64; \`items\`: each element of an array; \`properties\`: members of an object. */
export type Int64Location = true | { items?: Int64Location; properties?: Record<string, Int64Location> };

/** Per operation (\`METHOD /path\`) and status, where its JSON body holds int64 values. */
export const INT64_LOCATIONS: Record<string, Record<string, Int64Location>> = ${JSON.stringify(int64Locations(document), null, 2)};
`,
  );
  files.set(
    'document.ts',
    dataModule(
      'spec/openapi.yaml',
      'DOCUMENT',
      'The OpenAPI document as the toolkit runs it: parsed, without the prose no code reads (scripts/without-prose.ts).',
      withoutProse(document as unknown as JsonObject),
    ),
  );
  const fixturesSchema = JSON.parse(readFileSync(FIXTURES_SCHEMA_PATH, 'utf8')) as JsonObject;
  files.set(
    'fixtures-schema.ts',
    dataModule(
      'fixtures/fixtures.schema.json',
      'FIXTURES_SCHEMA',
      'The JSON Schema of a fixture file.',
      fixturesSchema,
    ),
  );
  files.set(
    'validators.ts',
    header('spec/openapi.yaml', "by Ajv's standalone code (scripts/generate-validators.ts)") +
      contractValidatorsModule(document as unknown as JsonObject),
  );
  files.set(
    'fixtures-validator.ts',
    header('fixtures/fixtures.schema.json', "by Ajv's standalone code (scripts/generate-validators.ts)") +
      fixturesValidatorModule(withoutProse(fixturesSchema)),
  );
  files.set(
    'default-fixtures.ts',
    `${header('fixtures/default.yaml', 'by scripts/default-fixtures.ts')}import type { DefaultFixtures } from '../fixtures/index.js';

/** The mock's default fixtures as data: ids are exact decimal strings, as the typed client hands them over. */
export const DEFAULT_FIXTURES: DefaultFixtures = ${defaultFixturesJson(readFileSync(DEFAULT_FIXTURES_FILE, 'utf8'))};
`,
  );
  return files;
}

const fresh = await generate();
if (process.argv.includes('--check')) {
  const committed = (name: string): string | undefined => {
    try {
      return readFileSync(join(GENERATED, name), 'utf8');
    } catch {
      return undefined; // A missing file is drift like any other.
    }
  };
  const stale = [...fresh].filter(([name, text]) => committed(name) !== text);
  // A hand edit is drift too, but this says why it matters: a page with a strict CSP cannot run it.
  const unsafe = ['validators.ts', 'fixtures-validator.ts'].flatMap((name) => {
    const found = forbiddenIn(committed(name) ?? '');
    return found.length > 0 ? [`src/generated/${name} holds ${found.join(', ')}`] : [];
  });
  if (unsafe.length > 0) {
    process.stderr.write(
      `${unsafe.join('\n')}: the built-in contract must run under a CSP without 'unsafe-eval'.\n`,
    );
    process.exit(1);
  }
  if (stale.length > 0) {
    const names = stale.map(([name]) => `src/generated/${name}`).join(', ');
    process.stderr.write(
      `${names} out of date with spec/openapi.yaml, fixtures/fixtures.schema.json or fixtures/default.yaml. Run \`npm run generate\` and commit the result.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    'src/generated/ matches spec/openapi.yaml, fixtures/fixtures.schema.json and fixtures/default.yaml\n',
  );
} else {
  for (const [name, text] of fresh) writeFileSync(join(GENERATED, name), text);
  process.stdout.write(`wrote ${[...fresh.keys()].map((name) => `src/generated/${name}`).join(', ')}\n`);
}
