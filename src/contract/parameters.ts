/**
 * Path and query parameters, read per their schema in the document. An integer parameter uses the one
 * int64 grammar of {@link parseInt64}: ids above 2^53 come back as exact `bigint`s (D8).
 */
import type { Verdict } from './ajv.js';
import { parseInt64 } from './int64.js';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: { type?: string; format?: string };
}

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
