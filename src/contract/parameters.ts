/** Parameters read as their schema's type, then checked (D21); not `coerceTypes`, which rounds int64s (D8). */
import { fail, ok, type Result } from '../result.js';
import { parseInt64 } from './int64.js';
import type { ExactJson } from './lossless-json.js';
import { type Verdict, violation } from './validators.js';

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
  /** Its top-level `$ref` (and that of `items`) followed. */
  schema: ParameterSchema;
}

/** A parameter's value as it arrived: one text, or each value of a repeated query parameter. */
export type RawParameter = string | readonly string[];

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

// Not `[type].flat()`: the mock reads every id through here, and `flat()` made it 10x slower.
const typesOf = ({ type }: ParameterSchema): readonly string[] =>
  type === undefined ? [] : typeof type === 'string' ? [type] : type;

/** One text read as the first of the schema's types it spells; a schema naming no type takes the text. */
function readScalar(schema: ParameterSchema, text: string): Result<ExactJson, string> {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes('string')) return ok(text);
  for (const type of types) {
    if (type === 'integer') {
      const parsed = parseInt64(text);
      // An int64 stays a bigint, as every id (D8).
      const small = parsed.ok && schema.format !== 'int64' && Number.isSafeInteger(Number(parsed.value));
      if (parsed.ok || types.length === 1) return small ? ok(Number(parsed.value)) : parsed;
    }
    if (type === 'number' && NUMBER.test(text)) return ok(Number(text));
    if (type === 'boolean' && (text === 'true' || text === 'false')) return ok(text === 'true');
    if (type === 'null' && text === 'null') return ok(null);
  }
  return fail(`must be ${types.join(' or ')}, got ${JSON.stringify(text.slice(0, 40))}`);
}

/** Reads a parameter's text as its schema's type; an array takes repeated query values or comma-separated items. */
export function parseParameter(param: ParameterSpec, raw: RawParameter): Verdict<ExactJson> {
  const array = typesOf(param.schema).includes('array');
  if (!array && typeof raw === 'string') {
    const value = readScalar(param.schema, raw);
    return value.ok ? value : violation('type', value.error, `/${param.name}`);
  }
  const texts = typeof raw !== 'string' ? raw : array && param.in !== 'query' ? raw.split(',') : [raw];
  const refused = (message: string) => violation('type', message, `/${param.name}`);
  if (!array && texts.length !== 1) return refused(`takes one value, got ${texts.length}`);
  const items: ExactJson[] = [];
  for (const [index, text] of texts.entries()) {
    const item = readScalar(array ? (param.schema.items ?? {}) : param.schema, text);
    if (!item.ok) return refused(array ? `item ${index} ${item.error}` : item.error);
    items.push(item.value);
  }
  return ok(array ? items : (items[0] as ExactJson));
}
