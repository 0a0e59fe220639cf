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
import type { ComponentSchemaName, Contract } from './model.js';
import { type JsonObject, SCHEMA_ID_BASE } from './refs.js';
import { type ContractValidators, type PrecompiledValidators, precompiledValidators } from './validators.js';

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
    const contract = buildContract(document as JsonObject);
    // Validators compile on first use; a draft's broken schema should stop it here, not on a request.
    const schemas = (document as { components?: { schemas?: object } }).components?.schemas ?? {};
    for (const name of Object.keys(schemas)) contract.validateSchema(name as ComponentSchemaName, null);
    for (const op of contract.operations) {
      for (const status of op.statuses) contract.validateResponseBody(op.operationId, status, 'null');
    }
    return { ok: true, value: contract };
  } catch (error) {
    // A schema Ajv refuses (an unknown keyword, a $ref to nothing): the document's fault, not a bug.
    return fail(`the document cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
  }
}
