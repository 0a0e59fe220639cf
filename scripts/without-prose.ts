/**
 * A document or schema as the toolkit runs it: without the prose that no code reads. The embedded document
 * (`src/generated/document.ts`) and the fixture schema Ajv's generated code quotes go into every bundle
 * that holds the built-in contract or the fixture checks, a page's MSW entry among them, where their
 * descriptions were a tenth of the gzipped size; the full document ships as
 * `petstore-contract-toolkit/openapi.yaml`.
 *
 * Kept: everything code reads. A header's `description` (the judge quotes it when a documented header is
 * missing), media-type examples (`Prefer: example=`), every `x-petstore-*` setting.
 * Emptied: a response's `description`, which OpenAPI 3.1 requires and no code reads.
 * Dropped: every other `description`, every `summary` and `tags` (of the document, operations and
 * examples), schema `examples` (an array; a media type's are a map), `externalDocs`, and the
 * `x-petstore-*` extensions marked `descriptive: true` (their test reads the YAML).
 */
import type { JsonObject } from '../src/contract/refs.js';

/** Where a `description` sits: on a header (read), a response (required but not read), or elsewhere. */
function descriptionOf(path: readonly string[]): 'header' | 'response' | 'other' {
  const container = path.at(-2);
  if (container === 'headers') return 'header';
  return container === 'responses' ? 'response' : 'other';
}

/** An `x-` extension marked `descriptive: true` states what code does; no code reads it (decisions.md). */
function isDescriptiveExtension(key: string, value: unknown): boolean {
  return key.startsWith('x-') && (value as { descriptive?: unknown } | null)?.descriptive === true;
}

function isProse(key: string, value: unknown, path: readonly string[]): boolean {
  // The keys of `properties` are a schema's field names, not keywords: a field may be called `description`.
  if (path.at(-1) === 'properties') return false;
  if (isDescriptiveExtension(key, value)) return true;
  if (key === 'description') return descriptionOf(path) === 'other';
  if (key === 'examples') return Array.isArray(value);
  return key === 'externalDocs' || key === 'summary' || key === 'tags';
}

function trim(value: unknown, path: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => trim(item, [...path, String(index)]));
  if (typeof value !== 'object' || value === null) return value;
  const kept: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'description' && descriptionOf(path) === 'response') kept[key] = '';
    else if (!isProse(key, item, path)) kept[key] = trim(item, [...path, key]);
  }
  return kept;
}

/**
 * The document (or JSON Schema) without the prose nothing reads at run time; the argument is not changed.
 *
 * @example withoutProse({ info: { title: 'T', description: 'long' } }) // { info: { title: 'T' } }
 */
export function withoutProse(document: JsonObject): JsonObject {
  return trim(document, []) as JsonObject;
}
