/**
 * The response headers the document lists, judged by the schemas it gives them (D11's Deprecation and
 * Sunset, a draft's X-Total-Count), never by rules restated here.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../contract/compile.js';
import { operationNodes } from '../contract/document-schemas.js';
import type { Contract, SchemaViolation } from '../contract/index.js';
import { isObject, type JsonObject, resolveRef } from '../contract/refs.js';

export interface DocumentedHeader {
  /** Lower case. */
  name: string;
  /** As the document spells it, for messages. */
  shownAs: string;
  description: string;
  example: string | null;
  /** The schema's `type`, which says how the header's text is read before validating. */
  type: unknown;
  validate: ValidateFunction;
}

const cache = new WeakMap<Contract, Map<string, DocumentedHeader[]>>();

/** The documented headers of one response, each with a validator compiled from its schema. */
export function documentedHeaders(from: Contract, operationId: string, status: number): DocumentedHeader[] {
  const byResponse = cache.get(from) ?? new Map<string, DocumentedHeader[]>();
  cache.set(from, byResponse);
  const cacheKey = `${operationId} ${status}`;
  const cached = byResponse.get(cacheKey);
  if (cached) return cached;
  const document = from.document as JsonObject;
  const node = operationNodes(document).find((op) => op.operationId === operationId);
  const response = node?.responses.find(([code]) => code === status)?.[1];
  const headers = isObject(response?.headers) ? response.headers : {};
  const ajv = createAjv();
  const found = Object.entries(headers).map(([shownAs, node]): DocumentedHeader => {
    const header = resolveRef(document, node);
    const schema = isObject(header) ? resolveRef(document, header.schema) : undefined;
    const example = isObject(header) ? header.example : undefined;
    return {
      name: shownAs.toLowerCase(),
      shownAs,
      description: isObject(header) && typeof header.description === 'string' ? header.description : '',
      example: example === undefined || isObject(example) ? null : String(example),
      type: isObject(schema) ? schema.type : undefined,
      validate: ajv.compile(isObject(schema) ? schema : {}),
    };
  });
  byResponse.set(cacheKey, found);
  return found;
}

/**
 * A header's text read as its schema's type (`"13"` as 13 for an integer), as a simple-style parameter is;
 * a text that does not read as that type stays text, so the schema refuses it.
 *
 * @example headerValue('integer', '13') // 13; headerValue('integer', 'abc') // 'abc'
 */
export function headerValue(type: unknown, text: string): unknown {
  const trimmed = text.trim();
  if ((type === 'integer' || type === 'number') && /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(trimmed)) {
    return Number(trimmed);
  }
  if (type === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return text;
}

export interface HeaderProblem {
  /** Completes "GET /pets/10 answered 200 …". */
  message: string;
  expected: string;
  violations: SchemaViolation[];
}

/**
 * The documented headers that are missing or break their schema.
 *
 * @example documentedHeaderViolations(contract, 'getPet', 200, { deprecation: 'true' }) // Deprecation breaks its pattern; Sunset is missing
 */
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
    if (header.validate(headerValue(header.type, value))) return [];
    const violations = (header.validate.errors ?? []).map(
      (e): SchemaViolation => ({
        path: `/headers/${header.shownAs}`,
        keyword: e.keyword,
        schemaPath: e.schemaPath,
        message: e.message ?? 'is invalid',
      }),
    );
    const first = violations[0];
    return [
      {
        message: `with ${header.shownAs}: ${JSON.stringify(value)}, which ${first ? first.message : 'is invalid'}`,
        expected,
        violations,
      },
    ];
  });
  const both = ['deprecation', 'sunset'].every((name) => documented.some((h) => h.name === name));
  return problems.length === 0 && both ? deprecationAfterSunset(headers) : problems;
}

/** D11: the deprecation comes first (RFC 9745 §3); a date in milliseconds reads as a far-future one. */
function deprecationAfterSunset(headers: Readonly<Record<string, string>>): HeaderProblem[] {
  const seconds = /^@(-?[0-9]{1,20})$/.exec(headers.deprecation ?? '')?.[1];
  const sunset = Date.parse(headers.sunset ?? '');
  if (seconds === undefined || Number.isNaN(sunset) || BigInt(seconds) * 1000n <= BigInt(sunset)) return [];
  return [
    {
      message: `with Deprecation: ${headers.deprecation} later than Sunset: ${headers.sunset} (epoch seconds? a date in milliseconds reads as a far-future one): the deprecation comes first (RFC 9745 §3, D11)`,
      expected: 'a Deprecation date (`@<epoch seconds>`) at or before the Sunset date',
      violations: [],
    },
  ];
}
