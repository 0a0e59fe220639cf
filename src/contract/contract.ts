/**
 * The contract module: the authored OpenAPI document, compiled once, handing every other part of the
 * toolkit what it needs from it: validators for each component schema and each documented response
 * body, the operations with their documented statuses, and the `x-petstore-*` decisions. Neither the
 * mock nor the conformance suite writes a schema by hand; both read it from here.
 *
 * The document comes from `src/generated/document.ts`, an embedded copy of `spec/openapi.yaml` that
 * `npm run generate` writes and `npm test` checks for drift, so this module loads in a browser too.
 */
import { DOCUMENT } from '../generated/document.js';
import { buildContract } from './build.js';
import type { Contract } from './model.js';

/** The toolkit's contract, compiled once from `spec/openapi.yaml`. */
export const contract: Contract = buildContract(DOCUMENT);
