/**
 * Building a contract whose validators Ajv compiles at run time: for a document given at run time
 * (`--spec`), in Node. It uses `new Function`, so the built-in contract, which a page may load under a
 * strict CSP, uses the validators generated at build time instead and never imports this module.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { fail, type Result } from '../result.js';
import { createAjv } from './ajv.js';
import { assembleContract } from './build.js';
import { documentProblem } from './contract.js';
import { documentSchemas } from './document-schemas.js';
import type { Contract } from './model.js';
import { documentPatternProblem } from './pattern-bounds.js';
import { isObject, type JsonObject, pointerTarget, SCHEMA_ID_BASE } from './refs.js';
import {
  type ContractValidators,
  type PrecompiledValidators,
  parameterKey,
  precompiledValidators,
  responseBodyKey,
} from './validators.js';

export { createAjv } from './ajv.js';

/**
 * The validators of a document, compiled by Ajv on first use: compiling them all costs more than the rest
 * of a mock's start-up, and the mock needs only Order (for fixtures) to start.
 *
 * @example compileValidators(document).schema('Order')?.({ id: 1 }) // true
 */
export function compileValidators(document: JsonObject): ContractValidators {
  const ajv = createAjv();
  const schemas = documentSchemas(document);
  for (const keyword of schemas.keywords) ajv.addKeyword(keyword);
  for (const [name, schema] of schemas.components) ajv.addSchema(schema as object, SCHEMA_ID_BASE + name);
  const compiled = new Map<string, ValidateFunction>();
  const lazily = (table: ReadonlyMap<string, unknown>, kind: string) => (key: string) => {
    const schema = table.get(key);
    if (schema === undefined) return undefined;
    let validate = compiled.get(`${kind} ${key}`);
    if (!validate) {
      validate = ajv.compile(schema as object);
      compiled.set(`${kind} ${key}`, validate);
    }
    return validate;
  };
  return {
    schema: (name) => (schemas.components.has(name) ? ajv.getSchema(SCHEMA_ID_BASE + name) : undefined),
    responseBody: lazily(schemas.responseBodies, 'body'),
    parameter: lazily(schemas.parameters, 'parameter'),
  };
}

/** The keywords whose subschemas apply to the value itself, not to a part of it. */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas'];

/**
 * The first component schema that leads back to itself without reading into the value (through `$ref`,
 * `allOf`, `not`, `if`…): checking any value against it would never end. A schema that refers to itself
 * for a part of the value (`properties`, `items`: a tree) is fine, as the value's depth ends it.
 *
 * @example selfReferringSchema({ components: { schemas: { A: { allOf: [{ $ref: '#/components/schemas/A' }] } } } }) // 'A'
 */
function selfReferringSchema(document: JsonObject): string | undefined {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const onPath = new Set<unknown>();
  const cleared = new Set<unknown>();
  let closing: unknown;
  // `root` is the component a `#…` ref is relative to (Ajv knows each component by an id of its own).
  const loops = (node: unknown, root: unknown): boolean => {
    if (!isObject(node) || cleared.has(node)) return false;
    if (onPath.has(node)) {
      closing = node;
      return true;
    }
    onPath.add(node);
    const next: Array<[unknown, unknown]> = [];
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length).split('/')[0] ?? '';
      next.push([pointerTarget(document, ref), pointerTarget(schemas, `#/${name}`)]);
    } else if (typeof ref === 'string' && ref.startsWith('#')) {
      next.push([pointerTarget(root, ref), root]);
    }
    for (const key of IN_PLACE) {
      const value = node[key];
      const subschemas = Array.isArray(value)
        ? value
        : key === 'dependentSchemas' && isObject(value)
          ? Object.values(value)
          : [value];
      for (const subschema of subschemas) next.push([subschema, root]);
    }
    const found = next.some(([subschema, itsRoot]) => loops(subschema, itsRoot));
    onPath.delete(node);
    if (!found) cleared.add(node);
    return found;
  };
  const start = Object.keys(schemas).find((name) => loops(schemas[name], schemas[name]));
  // Name the schema the loop goes through (A may only lead to B, which refers to itself).
  return start && (Object.keys(schemas).find((name) => schemas[name] === closing) ?? start);
}

/**
 * Builds the contract of a parsed OpenAPI 3.1 document. Given validators compiled ahead of time (the
 * generated ones), it uses them and never touches Ajv; without them it compiles the document's schemas
 * with Ajv (Node only: Ajv compiles with `new Function`). The toolkit's own contract is `defaultContract()`; a
 * test may build one from a changed copy of the document to see the behaviour follow the document.
 *
 * @example buildContract(DOCUMENT).operations.map((op) => op.operationId) // ['listOrders', 'cancelOrder', 'getPet']
 */
export function buildContract(document: JsonObject, validators?: PrecompiledValidators): Contract {
  return assembleContract(
    document,
    validators ? precompiledValidators(validators) : compileValidators(document),
  );
}

/**
 * Builds a contract from a parsed OpenAPI 3.1 document (a hand-edited draft, a test's altered copy), its
 * schemas compiled with Ajv at run time (Node only); the reason, in one line, when the document cannot be
 * one.
 *
 * @example const loaded = loadContract(load(readFileSync('v2.yaml', 'utf8'))); if (loaded.ok) createMock({ contract: loaded.value })
 */
export function loadContract(document: unknown): Result<Contract, string> {
  const problem = documentProblem(document);
  if (problem !== undefined) return fail(`the document ${problem}`);
  try {
    const looping = selfReferringSchema(document as JsonObject);
    if (looping !== undefined) {
      return fail(
        `the document's schema ${looping} refers to itself without reading into the value (through $ref, allOf, anyOf, oneOf, not, if/then/else or dependentSchemas), so checking a value against it would never end`,
      );
    }
    const slow = documentPatternProblem(document);
    if (slow !== undefined) return fail(`the document's ${slow}`);
    const validators = compileValidators(document as JsonObject);
    const contract = assembleContract(document as JsonObject, validators);
    // Validators compile on first use; a draft's broken schema should stop it here, not on a request.
    const schemas = (document as { components?: { schemas?: object } }).components?.schemas ?? {};
    for (const name of Object.keys(schemas)) validators.schema(name)?.(null);
    for (const op of contract.operations) {
      for (const status of op.statuses)
        validators.responseBody(responseBodyKey(op.operationId, status))?.(null);
      for (const p of op.parameters) validators.parameter(parameterKey(op.operationId, p.in, p.name))?.(null);
    }
    return { ok: true, value: contract };
  } catch (error) {
    // A schema Ajv refuses (an unknown keyword, a $ref to nothing): the document's fault, not a bug.
    return fail(`the document cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
  }
}
