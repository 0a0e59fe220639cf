/** The toolkit's own contract, with generated validators: built on first use, and loadable under a strict CSP. */
import { DOCUMENT } from '../generated/document.js';
import { VALIDATORS } from '../generated/validators.js';
import { assembleContract } from './build.js';
import { type Contract, HTTP_METHODS, type HttpMethod } from './model.js';
import { isObject } from './refs.js';

let builtIn: Contract | undefined;

/** @example defaultContract().basePath // '/v1' (built on first use, then shared) */
export function defaultContract(): Contract {
  builtIn ??= assembleContract(DOCUMENT, VALIDATORS);
  return builtIn;
}

/** The first reason a parsed document cannot be a contract, words that finish "the document …". */
export function documentProblem(document: unknown): string | undefined {
  if (!isObject(document)) return 'is not an OpenAPI document (expected a mapping at the top level)';
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+/.test(document.openapi))
    return `is not OpenAPI 3.1 (openapi: ${JSON.stringify(document.openapi ?? null)})`;
  if (!isObject(document.paths)) return 'has no paths';
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) return `path ${path} is not a mapping`;
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method as HttpMethod)) continue;
      if (!isObject(op) || typeof op.operationId !== 'string' || op.operationId === '')
        return `${method.toUpperCase()} ${path} has no operationId`;
      // OpenAPI: unique; every table of ours is keyed by it, so a second one would hide the first.
      if (ids.has(op.operationId))
        return `${method.toUpperCase()} ${path} repeats operationId ${op.operationId}`;
      ids.add(op.operationId);
    }
  }
  const servers = Array.isArray(document.servers) ? document.servers : [];
  if (!servers.some((s) => isObject(s) && typeof s.url === 'string'))
    return 'has no servers entry (the base path, such as /v1, is read from it)';
}
