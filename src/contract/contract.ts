/**
 * The contract module: the authored OpenAPI document, compiled once, handing every other part of the
 * toolkit what it needs from it: validators for each component schema, each documented response body and
 * each declared parameter, the operations with their documented statuses, and the `x-petstore-*`
 * decisions. Neither the mock nor the conformance suite writes a schema by hand; both read it from here.
 *
 * The document comes from `src/generated/document.ts`, an embedded copy of `spec/openapi.yaml`, and its
 * validators from `src/generated/validators.ts`, Ajv's standalone code for its schemas; `npm run generate`
 * writes both and `npm test` checks them for drift. So this module loads in a browser, runs no
 * `new Function` or `eval` (a page with a strict CSP can use it) and carries no schema compiler.
 */
import { DOCUMENT } from '../generated/document.js';
import { VALIDATORS } from '../generated/validators.js';
import { assembleContract } from './build.js';
import type { Contract } from './model.js';
import { precompiledValidators } from './validators.js';

/** The toolkit's contract, built once from `spec/openapi.yaml` and its generated validators. */
export const contract: Contract = assembleContract(DOCUMENT, precompiledValidators(VALIDATORS));
