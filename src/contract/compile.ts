/** A contract whose validators Ajv compiles at run time (`--spec`): `new Function`, so Node only. */
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fail, ok, type Result } from '../result.js';
import { assembleContract } from './build.js';
import { documentSchemas } from './document-schemas.js';
import { type Contract, HTTP_METHODS } from './model.js';
import { boundedRegExp, documentPatternProblem } from './pattern-bounds.js';
import { COMPONENT_SCHEMA, isObject, type JsonObject, pointerTarget, SCHEMA_ID_BASE } from './refs.js';
import { FORMATS } from './validator-runtime.js';
import type { CompiledValidator, ContractValidators } from './validators.js';

// CommonJS under NodeNext: the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** JSON Schema 2020-12 with our formats and OpenAPI's keywords; the validator generator passes its `code`. */
export function createAjv(options: Options = {}): Ajv2020 {
  // No meta-schema (40 ms of every start-up): meta-schema.test.ts and the OpenAPI linter check instead.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateSchema: false,
    code: { regExp: boundedRegExp },
    ...options,
  });
  // A printed module takes our formats, not ajv-formats' `require` (ajv-formats#68).
  if (!options.code?.source) addFormats(ajv);
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']); // OpenAPI 3.1's, for strict mode
  return ajv;
}

/** The validators of a document, compiled on first use (all at once cost more than the mock's start-up), or `now`. */
function compileValidators(document: JsonObject, now = false): ContractValidators {
  const ajv = createAjv();
  const { components, responseBodies, parameters, keywords } = documentSchemas(document);
  for (const keyword of keywords) ajv.addKeyword(keyword);
  for (const [name, schema] of components) ajv.addSchema(schema as object, SCHEMA_ID_BASE + name);
  // Ajv caches by the schema object: each getter compiles once.
  const byKey = (table: ReadonlyMap<string, unknown>) => {
    const getters: Record<string, CompiledValidator> = {};
    for (const [key, schema] of table)
      Object.defineProperty(getters, key, { enumerable: true, get: () => ajv.compile(schema as object) });
    if (now) Object.values(getters); // each getter compiles
    return getters;
  };
  return { schemas: byKey(components), responseBodies: byKey(responseBodies), parameters: byKey(parameters) };
}

const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];

/** Why a component schema leads back to itself without reading into the value (a tree is fine), if one does. */
function selfReferringSchema(document: JsonObject): string | undefined {
  const schemas = pointerTarget(document, '#/components/schemas');
  if (!isObject(schemas)) return undefined;
  const onPath = new Map<unknown, boolean>(); // `false` once cleared
  let closing: unknown;
  // `root` is the component a `#…` ref is relative to: Ajv gives each component an id of its own.
  const loops = (node: unknown, root: unknown): boolean => {
    if (!isObject(node) || onPath.get(node) === false) return false;
    if (onPath.get(node)) {
      closing = node;
      return true;
    }
    onPath.set(node, true);
    let found = false;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      const toComponent = ref.startsWith(COMPONENT_SCHEMA);
      const itsRoot = toComponent ? pointerTarget(document, ref.split('/', 4).join('/')) : root;
      found = loops(pointerTarget(toComponent ? document : root, ref), itsRoot);
    }
    const dependent = Object.values((node.dependentSchemas ?? {}) as object);
    const inPlace = [...IN_PLACE.flatMap((key) => [node[key]].flat()), ...dependent];
    found ||= inPlace.some((subschema) => loops(subschema, root));
    onPath.set(node, found);
    return found;
  };
  const start = Object.keys(schemas).find((name) => loops(schemas[name], schemas[name]));
  if (start === undefined) return undefined;
  // Name the schema the loop goes through (A may only lead to B, which refers to itself).
  const name = Object.keys(schemas).find((key) => schemas[key] === closing) ?? start;
  return `schema ${name} refers to itself without reading into the value (through $ref, allOf, anyOf, oneOf, not, if/then/else or dependentSchemas), so checking a value against it would never end`;
}

/** The first reason a parsed document cannot be a contract, words that finish "the document …". */
function documentProblem(document: unknown): string | undefined {
  if (!isObject(document)) return 'is not an OpenAPI document (expected a mapping at the top level)';
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+/.test(document.openapi))
    return `is not OpenAPI 3.1 (openapi: ${JSON.stringify(document.openapi ?? null)})`;
  if (!isObject(document.paths)) return 'has no paths';
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) return `path ${path} is not a mapping`;
    for (const [method, op] of Object.entries(item)) {
      if (!(HTTP_METHODS as readonly string[]).includes(method)) continue;
      const id = isObject(op) ? op.operationId : undefined;
      if (typeof id !== 'string' || id === '') return `${method.toUpperCase()} ${path} has no operationId`;
      // OpenAPI: unique; every table of ours is keyed by it, so a second one would hide the first.
      if (ids.has(id)) return `${method.toUpperCase()} ${path} repeats operationId ${id}`;
      ids.add(id);
    }
  }
  const servers = Array.isArray(document.servers) ? document.servers : [];
  if (!servers.some((s) => isObject(s) && typeof s.url === 'string'))
    return 'has no servers entry (the base path, such as /v1, is read from it)';
}

/** The contract of a parsed document, unchecked, its validators compiled on first use (tests, workers). */
export function buildContract(document: JsonObject): Contract {
  return assembleContract(document, compileValidators(document));
}

/** The contract of a parsed document (a draft, an altered copy), or why not; compiled now, not on a request. */
export function loadContract(document: unknown): Result<Contract, string> {
  const problem = documentProblem(document);
  if (problem !== undefined) return fail(`the document ${problem}`);
  try {
    const refused = selfReferringSchema(document as JsonObject) ?? documentPatternProblem(document);
    if (refused !== undefined) return fail(`the document's ${refused}`);
    return ok(assembleContract(document as JsonObject, compileValidators(document as JsonObject, true)));
  } catch (error) {
    // A schema Ajv refuses (an unknown keyword, a $ref to nothing): the document's fault, not a bug.
    return fail(`the document cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
  }
}
