/**
 * Validators as the contract uses them, whoever made them: Ajv's standalone code generated at build time
 * (`src/generated/validators.ts`, the built-in contract) or Ajv at run time (`compile.ts`, a document
 * given with `--spec`). This module imports no Ajv, so a page that uses the built-in contract runs no
 * `new Function` and carries no schema compiler.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Result } from '../result.js';
import { validationView } from './int64-view.js';
import type { ExactJson } from './lossless-json.js';

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

/** A validation function as Ajv compiles or generates it: a verdict, and on `false` the reasons. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The fixture file's generated validator: its errors carry no `schemaPath` and no message. */
export interface FixtureValidator {
  (data: unknown): boolean;
  errors?: Array<Omit<ErrorObject, 'schemaPath' | 'message'>> | null;
}

/** Where the contract finds the validator of each schema of its document, by the keys below. */
export interface ContractValidators {
  /** A component schema (`Order`). */
  schema(name: string): CompiledValidator | undefined;
  /** A documented response body, keyed by {@link responseBodyKey}. */
  responseBody(key: string): CompiledValidator | undefined;
  /** A declared parameter, keyed by {@link parameterKey}. */
  parameter(key: string): CompiledValidator | undefined;
}

/** Validators compiled ahead of time, as `src/generated/validators.ts` holds them. */
export interface PrecompiledValidators {
  schemas: Readonly<Record<string, CompiledValidator>>;
  responseBodies: Readonly<Record<string, CompiledValidator>>;
  parameters: Readonly<Record<string, CompiledValidator>>;
}

/** `listOrders 200`: the key of a documented response body. */
export function responseBodyKey(operationId: string, status: number): string {
  return `${operationId} ${status}`;
}

/** `cancelOrder path orderId`: the key of a declared parameter, its name as the document spells it. */
export function parameterKey(operationId: string, location: string, name: string): string {
  return `${operationId} ${location} ${name}`;
}

/**
 * The lookups of validators compiled ahead of time.
 *
 * @example precompiledValidators(VALIDATORS).schema('Order') // the generated Order validator
 */
export function precompiledValidators(records: PrecompiledValidators): ContractValidators {
  const find = (table: Readonly<Record<string, CompiledValidator>>, key: string) =>
    Object.hasOwn(table, key) ? table[key] : undefined;
  return {
    schema: (name) => find(records.schemas, name),
    responseBody: (key) => find(records.responseBodies, key),
    parameter: (key) => find(records.parameters, key),
  };
}

/**
 * The validator of a schema that is only a `$ref` to a component: the component's own, with each error's
 * `schemaPath` rooted at the component's id, as Ajv writes it when it copies the component in. The
 * generated code keeps one copy of each component instead of one per response that documents it (six
 * responses document an `Error` body).
 *
 * @example referencing(VALIDATORS.schemas.Error, 'https://petstore.contract/components/schemas/Error')
 */
export function referencing(validate: CompiledValidator, id: string): CompiledValidator {
  const referenced: CompiledValidator = (data) => {
    const valid = validate(data);
    referenced.errors =
      validate.errors?.map((error) => ({ ...error, schemaPath: id + error.schemaPath.slice(1) })) ?? null;
    return valid;
  };
  return referenced;
}

/**
 * The validator of `{ type: 'array', items: { $ref } }`: the component's own run on each item, with the
 * errors Ajv's code for that schema gives (the item's index in `instancePath`, `schemaPath` rooted at the
 * component). The generated code then keeps no second copy of the component for the list of it.
 *
 * @example itemsReferencing(VALIDATORS.schemas.Order, 'https://petstore.contract/components/schemas/Order')
 */
export function itemsReferencing(validate: CompiledValidator, id: string): CompiledValidator {
  const item = referencing(validate, id);
  const list: CompiledValidator = (data) => {
    if (!Array.isArray(data)) {
      const params = { type: 'array' };
      list.errors = [
        { instancePath: '', schemaPath: '#/type', keyword: 'type', params, message: 'must be array' },
      ];
      return false;
    }
    const errors = data.flatMap((value, index) =>
      item(value)
        ? []
        : (item.errors ?? []).map((e) => ({ ...e, instancePath: `/${index}${e.instancePath}` })),
    );
    list.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return list;
}

function toViolations(errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).map((error) => ({
    path: error.instancePath,
    keyword: error.keyword,
    schemaPath: error.schemaPath,
    // The generated validators leave out Ajv's `must be integer` and `must be <= 599`: the params, in words.
    message:
      error.keyword === 'format' && error.params.format === 'int64'
        ? 'must be an integer within int64 (−2^63 … 2^63−1)'
        : (error.message ?? `must be ${Object.values(error.params).join(' ')}`),
  }));
}

/**
 * Runs a validator on an exact value; the exact value comes back on success.
 *
 * @example runValidator(validate, { id: 9007199254740993n }) // { ok: true, value: { id: 9007199254740993n } }
 */
export function runValidator<T>(validate: CompiledValidator, value: ExactJson): Verdict<T> {
  return validate(validationView(value))
    ? { ok: true, value: value as T }
    : { ok: false, error: toViolations(validate.errors) };
}
