/** Validators as the contract uses them, generated or compiled; no Ajv import, so a page runs no `new Function`. */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Result } from '../result.js';
import { INT64_MAX, INT64_MIN } from './int64.js';
import type { ExactJson } from './lossless-json.js';

/** One way a value broke a schema, as Ajv reports it: JSON Pointers into the value (`path`) and the schema. */
export type SchemaViolation = Record<'path' | 'keyword' | 'schemaPath' | 'message', string>;

/** A value that passed a schema, or every way it broke it. */
export type Verdict<T> = Result<T, SchemaViolation[]>;

export type CompiledValidator<E = ErrorObject> = ((data: unknown) => boolean) & { errors?: E[] | null };

/** The fixture file's generated validator: its errors carry no `schemaPath` and no message. */
export type FixtureValidator = CompiledValidator<Omit<ErrorObject, 'schemaPath' | 'message'>>;

/** Component schemas' validators by name, bodies' and parameters' by the keys below; generated or compiled. */
export type ContractValidators = Readonly<
  Record<'schemas' | 'responseBodies' | 'parameters', Readonly<Record<string, CompiledValidator>>>
>;

export const responseBodyKey = (operationId: string, status: number) => `${operationId} ${status}`;

export const parameterKey = (operationId: string, location: string, name: string) =>
  `${operationId} ${location} ${name}`;

export function violation(keyword: string, message: string, path = ''): Verdict<never> {
  return { ok: false, error: [{ path, keyword, schemaPath: '', message }] };
}

/** The validator of a body that is only a `$ref`: one copy of `Error` in the page, not one per response. */
export function referencing(validate: CompiledValidator, id: string): CompiledValidator {
  const referenced: CompiledValidator = (data) => {
    const valid = validate(data);
    referenced.errors =
      validate.errors?.map((error) => ({ ...error, schemaPath: id + error.schemaPath.slice(1) })) ?? null;
    return valid;
  };
  return referenced;
}

/** The validator of `{ type: 'array', items: { $ref } }`, with Ajv's errors, reusing the component's code. */
export function itemsReferencing(validate: CompiledValidator, id: string): CompiledValidator {
  const params = { type: 'array' };
  const item = referencing(validate, id);
  const list: CompiledValidator = (data) => {
    const errors = Array.isArray(data)
      ? data.flatMap((value, index) =>
          item(value)
            ? []
            : (item.errors ?? []).map((e) => ({ ...e, instancePath: `/${index}${e.instancePath}` })),
        )
      : [{ instancePath: '', schemaPath: '#/type', keyword: 'type', params, message: 'must be array' }];
    list.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return list;
}

/** What Ajv validates for an exact value (D8): in-range bigints clamped inside int64, the rest ±2^64. */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') {
    if (value > INT64_MAX || value < INT64_MIN) return value > 0n ? 2 ** 64 : -(2 ** 64);
    return Math.max(Math.min(Number(value), 2 ** 63 - 1024), -(2 ** 63));
  }
  if (Array.isArray(value)) return value.map(validationView);
  if (typeof value !== 'object' || value === null) return value;
  // A loop, not `Object.fromEntries`: the proxy views every list it forwards, and the entry pairs cost 5x.
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = validationView(value[key] as ExactJson);
    // A plain assignment to `__proto__` would set the prototype, not a member.
    if (key === '__proto__') Object.defineProperty(view, key, { value: item, enumerable: true });
    else view[key] = item;
  }
  return view;
}

/** Runs a validator on an exact value, which comes back on success; generated validators carry no messages. */
export function runValidator<T>(validate: CompiledValidator, value: ExactJson): Verdict<T> {
  if (validate(validationView(value))) return { ok: true, value: value as T };
  const error = (validate.errors ?? []).map(({ instancePath, keyword, schemaPath, params, message }) => ({
    path: instancePath,
    keyword,
    schemaPath,
    message:
      keyword === 'format' && params.format === 'int64'
        ? 'must be an integer within int64 (−2^63 … 2^63−1)'
        : (message ?? `must be ${Object.values(params).join(' ')}`),
  }));
  return { ok: false, error };
}
