/**
 * The contract module: loads the authored OpenAPI document once and hands every other part of the
 * toolkit what it needs from it: compiled validators for each component schema and each documented
 * response body, the operations with their documented statuses, and the `x-petstore-*` decisions.
 * Neither the mock nor the conformance suite writes a schema by hand; both read it from here.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { type ExactJson, INTEGER_LITERAL, parseExactJson } from './lossless-json.js';
import { DOCUMENT_PATH } from './package-root.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The smallest and largest int64 values (decision D8). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

/** One way a value broke a schema, as ajv reports it. */
export interface SchemaViolation {
  /** JSON Pointer into the value, `''` for the value itself. */
  path: string;
  keyword: string;
  /** JSON Pointer into the schema, naming the rule that broke. */
  schemaPath: string;
  message: string;
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; errors: SchemaViolation[] };

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: { type?: string; format?: string };
}

export interface ResponseSpec {
  status: number;
  description: string;
  /** The media type of the documented body, or `null` when the response has no body (204). */
  mediaType: string | null;
  /** Named examples of the body, exact (ids above 2^53 stay `bigint`). */
  examples: ReadonlyMap<string, ExactJson>;
  /** Documented response header names, lower-case. */
  headers: readonly string[];
  /** Conformance levels of `x-petstore-conformance` (D3), when the response has them. */
  conformance: { decision: string; status: 'failure' | 'warning'; body: 'failure' | 'warning' } | null;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** The path template of the document, relative to the `/v1` base: `/store/orders/{orderId}`. */
  path: string;
  summary: string;
  tags: readonly string[];
  deprecated: boolean;
  /** The `x-stability` marker (D13), `null` where the operation carries none. */
  stability: string | null;
  /** Security scheme names required by the operation (every operation: `bearerAuth`, §5). */
  security: readonly string[];
  parameters: readonly ParameterSpec[];
  /** Documented statuses, ascending. */
  statuses: readonly number[];
  responses: ReadonlyMap<number, ResponseSpec>;
}

export interface OrderStateSpec {
  listed: boolean;
  complete?: boolean;
  source: string;
}

export interface TransitionSpec {
  from: string;
  operation: string;
  to: string;
  status: number;
  code?: string;
  source: string;
}

/** The order state machine of `x-petstore-order-states` (§3, D1–D3). */
export interface OrderStateMachine {
  states: Readonly<Record<string, OrderStateSpec>>;
  transitions: readonly TransitionSpec[];
}

export type ComponentSchemaName = 'Order' | 'Error' | 'Pet';

export interface Contract {
  /** The parsed document, as authored. */
  document: Readonly<Record<string, unknown>>;
  version: string;
  operations: readonly OperationSpec[];
  operation(operationId: string): OperationSpec;
  orderStates: OrderStateMachine;
  /** Validates an exact JSON value against a component schema. */
  validateSchema<T = ExactJson>(name: ComponentSchemaName, value: ExactJson): Verdict<T>;
  /**
   * Validates a response body against what the document says for that operation and status; `text`
   * is parsed losslessly first. A status without a documented body must come with an empty body.
   */
  validateResponseBody(operationId: string, status: number, text: string): Verdict<ExactJson | undefined>;
  /** Parses a path or query value per its parameter schema: an int64 comes back as an exact `bigint`. */
  parseParameter(param: ParameterSpec, raw: string): Verdict<bigint | number | string>;
}

const SCHEMA_ID_BASE = 'https://petstore.contract/components/schemas/';
/** Keywords of OpenAPI 3.1 that JSON Schema 2020-12 does not know; ajv's strict mode must be told. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` such as `#/components/responses/Unauthorized`. */
function resolveRef(document: Json, node: unknown): unknown {
  if (!isObject(node) || typeof node.$ref !== 'string') return node;
  const ref = node.$ref;
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, found ${ref}`);
  let target: unknown = document;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return resolveRef(document, target);
}

/** Rewrites `#/components/schemas/X` refs to absolute ids that ajv knows, and collects `x-` keywords. */
function prepareSchema(schema: unknown, extensions: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => prepareSchema(item, extensions));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) extensions.add(key);
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out[key] = SCHEMA_ID_BASE + value.slice('#/components/schemas/'.length);
    } else {
      out[key] = key === 'examples' || key === 'example' ? value : prepareSchema(value, extensions);
    }
  }
  return out;
}

// Doubles cannot tell 2^63 − 1 (the largest int64) from 2^63 (one past it), so the view that ajv
// validates clamps exact in-range bigints to the nearest double inside the range and maps
// out-of-range ones to ±2^64, which no int64 check accepts. The caller keeps the exact value.
const LARGEST_DOUBLE_BELOW_2_63 = 2 ** 63 - 1024;
const OUT_OF_INT64 = 2 ** 64;

/** The value as Ajv can check it: exact bigints become doubles that keep the int64 verdict (see above). */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') {
    if (value > INT64_MAX) return OUT_OF_INT64;
    if (value < INT64_MIN) return -OUT_OF_INT64;
    return Math.max(Math.min(Number(value), LARGEST_DOUBLE_BELOW_2_63), -(2 ** 63));
  }
  if (Array.isArray(value)) return value.map(validationView);
  if (isObject(value)) {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) out[key] = validationView(item as ExactJson);
    return out;
  }
  return value;
}

function isInt64View(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
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

function runValidator<T>(validate: ValidateFunction, value: ExactJson): Verdict<T> {
  return validate(validationView(value))
    ? { ok: true, value: value as T }
    : { ok: false, errors: toViolations(validate.errors) };
}

function parseParameterValue(param: ParameterSpec, raw: string): Verdict<bigint | number | string> {
  const fail = (message: string): Verdict<never> => ({
    ok: false,
    errors: [
      {
        path: `/${param.name}`,
        keyword: param.schema.format ?? param.schema.type ?? 'type',
        schemaPath: '',
        message,
      },
    ],
  });
  if (param.schema.type !== 'integer') return { ok: true, value: raw };
  if (!INTEGER_LITERAL.test(raw)) return fail(`must be an integer, got ${JSON.stringify(raw)}`);
  const value = BigInt(raw);
  if (param.schema.format === 'int64' && (value < INT64_MIN || value > INT64_MAX)) {
    return fail(`must be within int64 (−2^63 … 2^63−1), got ${raw}`);
  }
  return { ok: true, value };
}

function readExamples(media: Json | undefined): Map<string, ExactJson> {
  const examples = new Map<string, ExactJson>();
  if (!media) return examples;
  if (isObject(media.examples)) {
    for (const [name, example] of Object.entries(media.examples)) {
      if (isObject(example) && 'value' in example) examples.set(name, example.value as ExactJson);
    }
  }
  if ('example' in media) examples.set('example', media.example as ExactJson);
  return examples;
}

/**
 * Loads and compiles an OpenAPI document. The toolkit uses the shared {@link contract}; tests load
 * altered copies through this.
 *
 * @example const { operations } = loadContract(); operations.map((op) => op.operationId)
 */
export function loadContract(documentPath: string = DOCUMENT_PATH): Contract {
  // The document's own examples stay below 2^53, so plain YAML numbers are exact for them.
  const document = parseYaml(readFileSync(documentPath, 'utf8')) as Json;
  const ajv = createAjv();
  const extensions = new Set<string>();
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const prepared: Array<[string, unknown]> = Object.entries(schemas).map(([name, schema]) => [
    name,
    prepareSchema(schema, extensions),
  ]);
  const bodyValidators = new Map<string, ValidateFunction>();
  const operations: OperationSpec[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  const rootSecurity = Array.isArray(document.security) ? document.security : [];

  const pendingBodies: Array<[string, unknown]> = [];
  for (const [path, pathItemNode] of Object.entries(paths)) {
    const pathItem = resolveRef(document, pathItemNode) as Json;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op)) continue;
      const operationId = String(op.operationId);
      const parameters = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((node) => {
        const p = resolveRef(document, node) as Json;
        return {
          name: String(p.name),
          in: p.in as ParameterSpec['in'],
          required: p.required === true,
          schema: (isObject(p.schema) ? p.schema : {}) as ParameterSpec['schema'],
        };
      });
      const responses = new Map<number, ResponseSpec>();
      for (const [statusText, responseNode] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const response = resolveRef(document, responseNode) as Json;
        const status = Number(statusText);
        const content = isObject(response.content) ? response.content : {};
        const [mediaType, mediaNode] = Object.entries(content)[0] ?? [null, undefined];
        const media = isObject(mediaNode) ? mediaNode : undefined;
        if (media && media.schema !== undefined)
          pendingBodies.push([`${operationId} ${status}`, media.schema]);
        const conformance = isObject(response['x-petstore-conformance'])
          ? response['x-petstore-conformance']
          : null;
        responses.set(status, {
          status,
          description: String(response.description ?? ''),
          mediaType,
          examples: readExamples(media),
          headers: Object.keys(isObject(response.headers) ? response.headers : {}).map((h) =>
            h.toLowerCase(),
          ),
          conformance: conformance as ResponseSpec['conformance'],
        });
      }
      const security = (Array.isArray(op.security) ? op.security : rootSecurity).flatMap((req: unknown) =>
        isObject(req) ? Object.keys(req) : [],
      );
      operations.push({
        operationId,
        method,
        path,
        summary: String(op.summary ?? ''),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        deprecated: op.deprecated === true,
        stability: typeof op['x-stability'] === 'string' ? op['x-stability'] : null,
        security,
        parameters,
        statuses: [...responses.keys()].sort((a, b) => a - b),
        responses,
      });
    }
  }

  const preparedBodies = new Map(
    pendingBodies.map(([key, schema]) => [key, prepareSchema(schema, extensions)]),
  );
  for (const keyword of extensions) ajv.addKeyword(keyword);
  for (const [name, schema] of prepared) ajv.addSchema(schema as object, SCHEMA_ID_BASE + name);
  // Validators compile on first use: compiling them all costs more than the rest of start-up, and the
  // mock needs only Order (for fixtures) to start.
  const schemaValidator = (name: string): ValidateFunction | undefined =>
    ajv.getSchema(SCHEMA_ID_BASE + name);
  const bodyValidator = (key: string): ValidateFunction | undefined => {
    let validate = bodyValidators.get(key);
    const schema = preparedBodies.get(key);
    if (!validate && schema !== undefined) {
      validate = ajv.compile(schema as object);
      bodyValidators.set(key, validate);
    }
    return validate;
  };

  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const orderStates = document['x-petstore-order-states'] as OrderStateMachine;

  const contract: Contract = {
    document,
    version: String((document.info as Json | undefined)?.version),
    operations,
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`no operation ${operationId} in the document`);
      return op;
    },
    orderStates,
    validateSchema<T>(name: ComponentSchemaName, value: ExactJson): Verdict<T> {
      const validate = schemaValidator(name);
      if (!validate) throw new Error(`no schema ${name} in the document`);
      return runValidator<T>(validate, value);
    },
    validateResponseBody(operationId, status, text) {
      const response = contract.operation(operationId).responses.get(status);
      const fail = (keyword: string, message: string): Verdict<never> => ({
        ok: false,
        errors: [{ path: '', keyword, schemaPath: '', message }],
      });
      if (!response) return fail('status', `status ${status} is not documented for ${operationId}`);
      const validate = bodyValidator(`${operationId} ${status}`);
      if (!validate) return text === '' ? { ok: true, value: undefined } : fail('body', 'must have no body');
      const parsed = parseExactJson(text);
      if (!parsed.ok) return fail('json', `is not valid JSON: ${parsed.error}`);
      return runValidator(validate, parsed.value);
    },
    parseParameter: parseParameterValue,
  };
  return contract;
}

/** The toolkit's contract, loaded once from `spec/openapi.yaml`. */
export const contract: Contract = loadContract();
