/** Response headers judged by the schemas the document gives them (D11's Deprecation), never restated here. */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../contract/compile.js';
import { documentedResponseHeaders } from '../contract/document-schemas.js';
import type { Contract, ParameterSpec, SchemaViolation } from '../contract/index.js';
import { parseParameter } from '../contract/parameters.js';
import { isObject, type JsonObject } from '../contract/refs.js';
import { runValidator } from '../contract/validators.js';

interface DocumentedHeader {
  /** Lower case; `shownAs` as the document spells it. */
  name: string;
  shownAs: string;
  description: string;
  example: string | null;
  /** A simple-style header parameter: the text is read as the schema's type before validating. */
  as: ParameterSpec;
  validate: ValidateFunction;
}

const cache = new WeakMap<Contract, Map<string, DocumentedHeader[]>>();

/** The documented headers of one response, each with a validator compiled from its schema. */
export function documentedHeaders(from: Contract, operationId: string, status: number): DocumentedHeader[] {
  const byResponse = cache.get(from) ?? new Map<string, DocumentedHeader[]>();
  cache.set(from, byResponse);
  const cached = byResponse.get(`${operationId} ${status}`);
  if (cached) return cached;
  const ajv = createAjv();
  const documented =
    documentedResponseHeaders(from.document as JsonObject)
      .get(operationId)
      ?.get(status) ?? [];
  const found = documented.map(({ shownAs, header, schema }): DocumentedHeader => {
    const { example } = header;
    return {
      name: shownAs.toLowerCase(),
      shownAs,
      description: typeof header.description === 'string' ? header.description : '',
      example: example === undefined || isObject(example) ? null : String(example),
      as: { name: shownAs, in: 'header', required: false, schema },
      validate: ajv.compile(schema),
    };
  });
  byResponse.set(`${operationId} ${status}`, found);
  return found;
}

interface HeaderProblem {
  /** Completes "GET /pets/10 answered 200 …". */
  message: string;
  expected: string;
  violations: SchemaViolation[];
}

/** The documented headers that are missing or break their schema. */
export function documentedHeaderViolations(
  from: Contract,
  operationId: string,
  status: number,
  headers: Readonly<Record<string, string>>,
): HeaderProblem[] {
  const documented = documentedHeaders(from, operationId, status);
  const problems = documented.flatMap((header): HeaderProblem[] => {
    const expected = `a ${header.shownAs} header${header.example ? ` like \`${header.example}\`` : ''} (${header.description.trim()})`;
    const value = headers[header.name];
    if (value === undefined) return [{ message: `without ${header.shownAs}`, expected, violations: [] }];
    // A text that does not read as the schema's type stays text, so the schema refuses it (`"13"` is 13).
    const read = parseParameter(header.as, value.trim());
    const verdict = runValidator(header.validate, read.ok ? read.value : value);
    if (verdict.ok) return [];
    const violations = verdict.error.map((v) => ({ ...v, path: `/headers/${header.shownAs}` }));
    const message = `with ${header.shownAs}: ${JSON.stringify(value)}, which ${violations[0]?.message ?? 'is invalid'}`;
    return [{ message, expected, violations }];
  });
  const both = ['deprecation', 'sunset'].every((name) => documented.some((h) => h.name === name));
  return problems.length === 0 && both ? deprecationAfterSunset(headers) : problems;
}

/** D11: the deprecation comes first (RFC 9745 §3); a date in milliseconds reads as a far-future one. */
function deprecationAfterSunset(headers: Readonly<Record<string, string>>): HeaderProblem[] {
  const seconds = /^@(-?[0-9]{1,20})$/.exec(headers.deprecation ?? '')?.[1];
  const sunset = Date.parse(headers.sunset ?? '');
  if (seconds === undefined || Number.isNaN(sunset) || BigInt(seconds) * 1000n <= BigInt(sunset)) return [];
  const message = `with Deprecation: ${headers.deprecation} later than Sunset: ${headers.sunset} (epoch seconds? a date in milliseconds reads as a far-future one): the deprecation comes first (RFC 9745 §3, D11)`;
  const expected = 'a Deprecation date (`@<epoch seconds>`) at or before the Sunset date';
  return [{ message, expected, violations: [] }];
}
