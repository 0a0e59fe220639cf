/**
 * Building the {@link Contract} from a parsed OpenAPI document: the operations, their parameters and
 * documented responses, the state machine, and the validators (compiled on first use). It takes the
 * document as data, so it runs wherever JavaScript does; reading the file is not its business.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, runValidator, type Verdict } from './ajv.js';
import { type ExactJson, parseExactJson } from './lossless-json.js';
import {
  type ComponentSchemaName,
  type Contract,
  HTTP_METHODS,
  type OperationSpec,
  type OrderStateMachine,
  type ResponseSpec,
} from './model.js';
import { type ParameterSpec, parseParameter, readParameterValue } from './parameters.js';
import { isObject, type JsonObject, prepareSchema, resolveRef, SCHEMA_ID_BASE } from './refs.js';

function readExamples(media: JsonObject | undefined): Map<string, ExactJson> {
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

function readParameter(document: JsonObject, node: unknown): ParameterSpec {
  const p = resolveRef(document, node) as JsonObject;
  const schema = resolveRef(document, p.schema);
  const items = isObject(schema) ? resolveRef(document, schema.items) : undefined;
  return {
    name: String(p.name),
    in: p.in as ParameterSpec['in'],
    required: p.required === true,
    schema: (isObject(schema)
      ? isObject(items)
        ? { ...schema, items }
        : schema
      : {}) as ParameterSpec['schema'],
  };
}

/** A failed verdict of one violation. */
function violation(path: string, keyword: string, message: string): Verdict<never> {
  return { ok: false, error: [{ path, keyword, schemaPath: '', message }] };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The path every operation is served below (D12): that of the local `servers` entry (the mock's own
 * address), else of the first one, without a trailing slash: `http://127.0.0.1:4010/v1` → `/v1`. A
 * server URL that is still a `{variable}` is read through the variable's default.
 */
function basePathOf(servers: unknown): string {
  const urls = (Array.isArray(servers) ? servers : []).flatMap((server: unknown) => {
    if (!isObject(server) || typeof server.url !== 'string') return [];
    const variables = isObject(server.variables) ? server.variables : {};
    const url = server.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
    });
    try {
      return [new URL(url, 'http://relative.invalid')];
    } catch {
      return [];
    }
  });
  const chosen = urls.find((url) => LOCAL_HOSTS.has(url.hostname)) ?? urls[0];
  return chosen ? chosen.pathname.replace(/\/+$/, '') : '';
}

/**
 * Compiles a parsed OpenAPI 3.1 document. The toolkit's own is `defaultContract()`; `loadContract` checks a document before building it; a test may build one
 * from a changed copy of the document to see the behaviour follow the document.
 *
 * @example buildContract(DOCUMENT).operations.map((op) => op.operationId) // ['listOrders', 'cancelOrder', 'getPet']
 */
export function buildContract(document: JsonObject): Contract {
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
    const pathItem = resolveRef(document, pathItemNode) as JsonObject;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op)) continue;
      const operationId = String(op.operationId);
      const parameters = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((node) =>
        readParameter(document, node),
      );
      const responses = new Map<number, ResponseSpec>();
      for (const [statusText, responseNode] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const response = resolveRef(document, responseNode) as JsonObject;
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

  const parameterValidators = new Map<ParameterSpec, ValidateFunction>();
  const parameterValidator = (param: ParameterSpec): ValidateFunction => {
    let validate = parameterValidators.get(param);
    if (!validate) {
      validate = ajv.compile(prepareSchema(param.schema, extensions) as object);
      parameterValidators.set(param, validate);
    }
    return validate;
  };

  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const orderStates = document['x-petstore-order-states'] as OrderStateMachine;

  const contract: Contract = {
    document,
    basePath: basePathOf(document.servers),
    version: String((document.info as JsonObject | undefined)?.version),
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
        error: [{ path: '', keyword, schemaPath: '', message }],
      });
      if (!response) return fail('status', `status ${status} is not documented for ${operationId}`);
      const validate = bodyValidator(`${operationId} ${status}`);
      if (!validate) return text === '' ? { ok: true, value: undefined } : fail('body', 'must have no body');
      const parsed = parseExactJson(text);
      if (!parsed.ok) return fail('json', `is not valid JSON: ${parsed.error}`);
      return runValidator(validate, parsed.value);
    },
    validateParameter(operationId, location, name, raw) {
      const lower = name.toLowerCase();
      const param = contract
        .operation(operationId)
        .parameters.find(
          (p) =>
            p.in === location && (location === 'header' ? p.name.toLowerCase() === lower : p.name === name),
        );
      if (!param) throw new Error(`${operationId} declares no ${location} parameter ${name}`);
      const path = `/${param.name}`;
      if (raw === undefined) {
        return param.required ? violation(path, 'required', 'is required') : { ok: true, value: undefined };
      }
      const read = readParameterValue(param, raw);
      if (!read.ok) return violation(path, 'type', read.error);
      const verdict = runValidator<ExactJson>(parameterValidator(param), read.value);
      if (verdict.ok) return verdict;
      return { ok: false, error: verdict.error.map((v) => ({ ...v, path: path + v.path })) };
    },
    parseParameter,
  };
  return contract;
}
