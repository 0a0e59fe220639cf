/**
 * Assembling the {@link Contract} from a parsed OpenAPI document and the validators of its schemas: the
 * operations, their parameters and documented responses, and the state machine. It takes the document as
 * data and compiles nothing, so it runs wherever JavaScript does, under any CSP: the validators come
 * generated at build time (`contract.ts`) or compiled at run time (`compile.ts`).
 */
import { parameterNodes } from './document-schemas.js';
import { type ExactJson, parseExactJson } from './lossless-json.js';
import {
  type ComponentSchemaName,
  type Contract,
  HTTP_METHODS,
  type OperationSpec,
  type OrderStateMachine,
  type ResponseSpec,
} from './model.js';
import {
  type ParameterSchema,
  type ParameterSpec,
  parseParameter,
  readParameterValue,
} from './parameters.js';
import { isObject, type JsonObject, resolveRef } from './refs.js';
import {
  type ContractValidators,
  parameterKey,
  responseBodyKey,
  runValidator,
  type Verdict,
} from './validators.js';

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

function readParameter(document: JsonObject, p: JsonObject): ParameterSpec {
  const schema = resolveRef(document, p.schema);
  const resolved = (isObject(schema) ? { ...schema } : {}) as ParameterSchema;
  if (resolved.items !== undefined) resolved.items = resolveRef(document, resolved.items) as ParameterSchema;
  return {
    name: String(p.name),
    in: p.in as ParameterSpec['in'],
    required: p.required === true,
    schema: resolved,
  };
}

function violation(keyword: string, message: string, path = ''): Verdict<never> {
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
 * The contract of a parsed OpenAPI 3.1 document, validating with the validators given. Most callers want
 * the built-in `contract`, or `buildContract` of `compile.ts` for another document.
 *
 * @example assembleContract(DOCUMENT, precompiledValidators(VALIDATORS)).operations.length // 3
 */
export function assembleContract(document: JsonObject, validators: ContractValidators): Contract {
  const operations: OperationSpec[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  const rootSecurity = Array.isArray(document.security) ? document.security : [];

  for (const [path, pathItemNode] of Object.entries(paths)) {
    const pathItem = resolveRef(document, pathItemNode) as JsonObject;
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op)) continue;
      const operationId = String(op.operationId);
      const parameters = parameterNodes(document, pathItem, op).map((node) => readParameter(document, node));
      const responses = new Map<number, ResponseSpec>();
      for (const [statusText, responseNode] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const response = resolveRef(document, responseNode) as JsonObject;
        const status = Number(statusText);
        const content = isObject(response.content) ? response.content : {};
        const [mediaType, mediaNode] = Object.entries(content)[0] ?? [null, undefined];
        const conformance = isObject(response['x-petstore-conformance'])
          ? response['x-petstore-conformance']
          : null;
        responses.set(status, {
          status,
          mediaType,
          examples: readExamples(isObject(mediaNode) ? mediaNode : undefined),
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
        deprecated: op.deprecated === true,
        stability: typeof op['x-stability'] === 'string' ? op['x-stability'] : null,
        security,
        parameters,
        statuses: [...responses.keys()].sort((a, b) => a - b),
        responses,
      });
    }
  }

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
      const validate = validators.schema(name);
      if (!validate) throw new Error(`no schema ${name} in the document`);
      return runValidator<T>(validate, value);
    },
    validateResponseBody(operationId, status, text) {
      const response = contract.operation(operationId).responses.get(status);
      if (!response) return violation('status', `status ${status} is not documented for ${operationId}`);
      const validate = validators.responseBody(responseBodyKey(operationId, status));
      if (!validate)
        return text === '' ? { ok: true, value: undefined } : violation('body', 'must have no body');
      const parsed = parseExactJson(text);
      if (!parsed.ok) return violation('json', `is not valid JSON: ${parsed.error}`);
      return runValidator(validate, parsed.value);
    },
    validateParameter(operationId, location, name, raw) {
      const op = contract.operation(operationId);
      // Header names are case-insensitive (RFC 9110 §5.1); the others are matched as written.
      const lower = name.toLowerCase();
      const param = op.parameters.find(
        (p) =>
          p.in === location && (location === 'header' ? p.name.toLowerCase() === lower : p.name === name),
      );
      if (!param) throw new Error(`${operationId} declares no ${location} parameter ${name}`);
      // Violations point at the parameter (`/limit`), as a body's point into the body.
      const path = `/${param.name}`;
      if (raw === undefined) {
        return param.required ? violation('required', 'is required', path) : { ok: true, value: undefined };
      }
      const value = readParameterValue(param, raw);
      if (!value.ok) return violation('type', value.error, path);
      const validate = validators.parameter(parameterKey(operationId, param.in, param.name));
      if (!validate) throw new Error(`no validator for ${operationId} ${param.in} parameter ${param.name}`);
      const verdict = runValidator<ExactJson>(validate, value.value);
      if (verdict.ok) return verdict;
      return { ok: false, error: verdict.error.map((v) => ({ ...v, path: path + v.path })) };
    },
    parseParameter,
  };
  return contract;
}
