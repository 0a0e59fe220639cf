/**
 * The contract as a value: {@link loadContract} checks a parsed OpenAPI document and builds a
 * {@link Contract} from it; {@link defaultContract} is the toolkit's own, built from the embedded copy of
 * `spec/openapi.yaml` (`src/generated/document.ts`, written by `npm run generate` and drift-checked) the
 * first time something asks for it. Nothing is built at import time, so two documents can live in one
 * process and every entry point takes the contract it serves or judges as an argument.
 */
import { DOCUMENT } from '../generated/document.js';
import { fail, type Result } from '../result.js';
import { buildContract } from './build.js';
import { type ComponentSchemaName, type Contract, HTTP_METHODS, type HttpMethod } from './model.js';
import { isObject } from './refs.js';

let builtIn: Contract | undefined;

/**
 * The toolkit's contract, from `spec/openapi.yaml`, built on first use and then shared.
 *
 * @example defaultContract().basePath // '/v1'
 */
export function defaultContract(): Contract {
  builtIn ??= buildContract(DOCUMENT);
  return builtIn;
}

/** What a document must hold before a contract can be built from it; the first problem found, or none. */
function documentProblem(document: unknown): string | undefined {
  if (!isObject(document)) return 'is not an OpenAPI document (expected a mapping at the top level)';
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+/.test(document.openapi)) {
    return `is not OpenAPI 3.1 (openapi: ${JSON.stringify(document.openapi ?? null)})`;
  }
  if (!isObject(document.paths)) return 'has no paths';
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) return `path ${path} is not a mapping`;
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method as HttpMethod)) continue;
      if (!isObject(op) || typeof op.operationId !== 'string' || op.operationId === '') {
        return `${method.toUpperCase()} ${path} has no operationId`;
      }
    }
  }
  const servers = document.servers;
  if (!Array.isArray(servers) || !servers.some((s) => isObject(s) && typeof s.url === 'string')) {
    return 'has no servers entry (the base path, such as /v1, is read from it)';
  }
  return undefined;
}

/**
 * Builds a contract from a parsed OpenAPI 3.1 document (a hand-edited draft, a test's altered copy); the
 * reason, in one line, when the document cannot be one. Its schemas compile with Ajv at run time.
 *
 * @example const loaded = loadContract(load(readFileSync('v2.yaml', 'utf8'))); if (loaded.ok) createMock({ contract: loaded.value })
 */
export function loadContract(document: unknown): Result<Contract, string> {
  const problem = documentProblem(document);
  if (problem !== undefined) return fail(`the document ${problem}`);
  try {
    const contract = buildContract(document as Record<string, unknown>);
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
