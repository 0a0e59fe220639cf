/**
 * The Ajv the toolkit validates with, and how its findings are reported. Values are validated through
 * their {@link validationView}, so int64 is judged exactly.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Result } from '../result.js';
import { isInt64View, validationView } from './int64-view.js';
import type { ExactJson } from './lossless-json.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Keywords of OpenAPI 3.1 that JSON Schema 2020-12 does not know; ajv's strict mode must be told. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];

/** One way a value broke a schema, as ajv reports it. */
export interface SchemaViolation {
  /** JSON Pointer into the value, `''` for the value itself. */
  path: string;
  keyword: string;
  /** JSON Pointer into the schema, naming the rule that broke. */
  schemaPath: string;
  message: string;
}

/** A value that passed a schema, or every way it broke it. */
export type Verdict<T> = Result<T, SchemaViolation[]>;

/**
 * The Ajv the toolkit validates with: JSON Schema 2020-12, ajv-formats, exact int64 (on values passed
 * through {@link validationView}) and OpenAPI's extra keywords. Other JSON Schemas of the project (the
 * fixture file's) compile with it too.
 *
 * @example createAjv().compile({ type: 'integer', format: 'int64' })(validationView(2n ** 63n)) // false
 */
export function createAjv(options: { verbose?: boolean } = {}): Ajv2020 {
  // validateSchema: false skips compiling the 2020-12 meta-schema (about 40 ms of every start-up); the
  // schemas are checked against it in src/contract/meta-schema.test.ts and by the OpenAPI linter instead.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateSchema: false,
    verbose: options.verbose === true,
  });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: isInt64View });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  return ajv;
}

function toViolations(errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).map((error) => ({
    path: error.instancePath,
    keyword: error.keyword,
    schemaPath: error.schemaPath,
    message:
      error.keyword === 'format' && error.params.format === 'int64'
        ? 'must be an integer within int64 (−2^63 … 2^63−1)'
        : (error.message ?? 'is invalid'),
  }));
}

/**
 * Runs a compiled validator on an exact value; the exact value comes back on success.
 *
 * @example runValidator(validate, { id: 9007199254740993n }) // { ok: true, value: { id: 9007199254740993n } }
 */
export function runValidator<T>(validate: ValidateFunction, value: ExactJson): Verdict<T> {
  return validate(validationView(value))
    ? { ok: true, value: value as T }
    : { ok: false, error: toViolations(validate.errors) };
}
