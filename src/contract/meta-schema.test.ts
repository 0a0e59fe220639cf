/**
 * At run time the validators skip checking schemas against the JSON Schema 2020-12 meta-schema (it costs
 * about 40 ms of start-up per Ajv instance). This test does that check instead, for every schema the
 * toolkit compiles: the document's component schemas, its response body schemas and the fixture schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from './package-root.js';

type Json = Record<string, unknown>;
const document = parse(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')) as Json;
const components = (document.components as Json).schemas as Record<string, Json>;
const fixtureSchema = JSON.parse(
  readFileSync(join(packageRoot(), 'fixtures', 'fixtures.schema.json'), 'utf8'),
);

/** Every `schema` under a media type in the document's responses. */
function bodySchemas(): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  const walk = (node: unknown, where: string) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && where.includes('/content/')) found.push([where, value]);
      else walk(value, `${where}/${key}`);
    }
  };
  walk(document.paths, '#/paths');
  walk((document.components as Json).responses, '#/components/responses');
  return found;
}

describe('every schema the toolkit compiles is valid JSON Schema 2020-12', () => {
  const ajv = new Ajv2020({ strict: false });
  const cases: Array<[string, unknown]> = [
    ...Object.entries(components).map(
      ([name, schema]) => [`#/components/schemas/${name}`, schema] as [string, unknown],
    ),
    ...bodySchemas(),
    ['fixtures/fixtures.schema.json', fixtureSchema],
  ];

  it('finds the schemas to check', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3 + 6 + 1);
  });

  it.each(cases)('%s', (_where, schema) => {
    expect(ajv.validateSchema(schema as object), ajv.errorsText()).toBe(true);
  });

  it('catches a schema that is not valid 2020-12', () => {
    expect(ajv.validateSchema({ type: 'integer', minimum: 'one' })).toBe(false);
  });
});
