/**
 * Path, query and header parameters, read per their schema in the document. Their values arrive as text,
 * so each is first read as the type its schema names (integer, number, boolean, an array of those), then
 * checked against the schema. An integer uses the one int64 grammar of {@link parseInt64}: ids above 2^53
 * come back as exact `bigint`s (D8).
 *
 * The reading is explicit rather than Ajv's `coerceTypes`, which is one option for every schema of an Ajv
 * instance (bodies included) and rounds integers through a double.
 */
import { fail, ok, type Result } from '../result.js';
import type { Verdict } from './ajv.js';
import { parseInt64 } from './int64.js';
import type { ExactJson } from './lossless-json.js';

export interface ParameterSchema {
  type?: string | readonly string[];
  format?: string;
  items?: ParameterSchema;
  [keyword: string]: unknown;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** The parameter's schema, its top-level `$ref` (and that of `items`) followed. */
  schema: ParameterSchema;
}

/** A parameter's value as it arrived: one text, or each value of a repeated query parameter. */
export type RawParameter = string | readonly string[];

/**
 * Parses a raw parameter value per its schema.
 *
 * @example parseParameter({ name: 'orderId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }, '9007199254740993')
 * // { ok: true, value: 9007199254740993n }
 */
export function parseParameter(param: ParameterSpec, raw: string): Verdict<bigint | number | string> {
  if (param.schema.type !== 'integer') return { ok: true, value: raw };
  // Every integer parameter of the document is an int64 (D8); src/contract/contract.test.ts holds it to that.
  const parsed = parseInt64(raw);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    error: [
      {
        path: `/${param.name}`,
        keyword: param.schema.format ?? param.schema.type,
        schemaPath: '',
        message: parsed.error,
      },
    ],
  };
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

function typesOf(schema: ParameterSchema): readonly string[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : schema.type;
}

/** One text read as the first of the schema's types it spells; a schema naming no type takes the text. */
function readScalar(schema: ParameterSchema, text: string): Result<ExactJson, string> {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes('string')) return ok(text);
  for (const type of types) {
    if (type === 'integer') {
      const parsed = parseInt64(text);
      if (!parsed.ok) continue;
      // An int64 stays a bigint, as every id of the toolkit (D8); a smaller integer is a plain number.
      const small = schema.format !== 'int64' && Number.isSafeInteger(Number(parsed.value));
      return ok(small ? Number(parsed.value) : parsed.value);
    }
    if (type === 'number' && NUMBER.test(text)) return ok(Number(text));
    if (type === 'boolean' && (text === 'true' || text === 'false')) return ok(text === 'true');
    if (type === 'null' && text === 'null') return ok(null);
  }
  // An integer alone says why the text is none, in the words of the one int64 grammar.
  const integer = types.length === 1 && types[0] === 'integer' ? parseInt64(text) : undefined;
  if (integer && !integer.ok) return fail(integer.error);
  return fail(`must be ${types.join(' or ')}, got ${JSON.stringify(text.slice(0, 40))}`);
}

/**
 * Reads a parameter's text as the type its schema names, before the schema checks it. An array takes each
 * value of a repeated query parameter, or the comma-separated items of a path or header value (OpenAPI's
 * default styles, `form` and `simple`).
 *
 * @example readParameterValue({ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }, '5') // { ok: true, value: 5 }
 */
export function readParameterValue(param: ParameterSpec, raw: RawParameter): Result<ExactJson, string> {
  if (typesOf(param.schema).includes('array')) {
    const texts = typeof raw === 'string' ? (param.in === 'query' ? [raw] : raw.split(',')) : raw;
    const items: ExactJson[] = [];
    for (const [index, text] of texts.entries()) {
      const item = readScalar(param.schema.items ?? {}, text);
      if (!item.ok) return fail(`item ${index} ${item.error}`);
      items.push(item.value);
    }
    return ok(items);
  }
  if (typeof raw !== 'string') {
    if (raw.length !== 1) return fail(`takes one value, got ${raw.length}`);
    return readScalar(param.schema, raw[0] ?? '');
  }
  return readScalar(param.schema, raw);
}
