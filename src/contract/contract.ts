/** The toolkit's own contract, with generated validators: built on first use, and loadable under a strict CSP. */
import { DOCUMENT } from '../generated/document.js';
import { VALIDATORS } from '../generated/validators.js';
import { assembleContract } from './build.js';
import type { Contract } from './model.js';

let builtIn: Contract | undefined;

/** @example defaultContract().basePath // '/v1' (built on first use, then shared) */
export function defaultContract(): Contract {
  builtIn ??= assembleContract(DOCUMENT, VALIDATORS);
  return builtIn;
}
