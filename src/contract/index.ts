/** `…/contract`: the built-in contract, its validators generated (no Ajv: CSP-safe); others: `…/contract/compile`. */
export { BEARER_TOKEN_PATTERN, bearerToken } from './bearer.js';
export { assembleContract } from './build.js';
export { defaultContract } from './contract.js';
export { INT64_MAX, INT64_MIN, isInt64String, parseInt64, sameInteger } from './int64.js';
export * from './lossless-json.js';
export * from './model.js';
export * from './order-states.js';
export type { ParameterSchema, ParameterSpec, RawParameter } from './parameters.js';
export type { CompiledValidator, ContractValidators, SchemaViolation, Verdict } from './validators.js';
export { validationView } from './validators.js';
