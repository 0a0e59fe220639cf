/** The {@link Contract} of a parsed document; it compiles nothing, so it runs under any CSP (validators are given). */
import { firstMedia, operationNodes } from './document-schemas.js';
import { type ExactJson, parseExactJson } from './lossless-json.js';
import type { Contract, OperationSpec, OrderStateMachine, ResponseSpec } from './model.js';
import { type ParameterSchema, type ParameterSpec, parseParameter } from './parameters.js';
import { isObject, type JsonObject, resolveRef } from './refs.js';
import {
  type ContractValidators,
  parameterKey,
  responseBodyKey,
  runValidator,
  violation,
} from './validators.js';

function readParameter(document: JsonObject, p: JsonObject): ParameterSpec {
  const found = resolveRef(document, p.schema);
  const schema = (isObject(found) ? { ...found } : {}) as ParameterSchema;
  if (schema.items !== undefined) schema.items = resolveRef(document, schema.items) as ParameterSchema;
  return { name: String(p.name), in: p.in as ParameterSpec['in'], required: p.required === true, schema };
}

/** The base path (D12): that of the local `servers` entry, else the first, `{variables}` at their defaults. */
function basePathOf(servers: unknown): string {
  const urls = (Array.isArray(servers) ? servers : []).flatMap((server: unknown) => {
    if (!isObject(server) || typeof server.url !== 'string') return [];
    const url = server.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
      const variable = isObject(server.variables) ? server.variables[name] : undefined;
      return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
    });
    return URL.canParse(url, 'http://relative.invalid') ? [new URL(url, 'http://relative.invalid')] : [];
  });
  const chosen = urls.find((url) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) ?? urls[0];
  return chosen ? chosen.pathname.replace(/\/+$/, '') : '';
}

function readResponse(status: number, response: JsonObject): ResponseSpec {
  const [mediaType, media] = firstMedia(response);
  const examples = new Map<string, ExactJson>();
  for (const [name, example] of Object.entries(isObject(media?.examples) ? media.examples : {}))
    if (isObject(example) && 'value' in example) examples.set(name, example.value as ExactJson);
  if (media && 'example' in media) examples.set('example', media.example as ExactJson);
  const conformance = response['x-petstore-conformance'] as ResponseSpec['conformance'];
  return { status, mediaType, examples, conformance: isObject(conformance) ? conformance : null };
}

/** @example assembleContract(DOCUMENT, VALIDATORS).operations.length // 3 */
export function assembleContract(document: JsonObject, validators: ContractValidators): Contract {
  const operations = operationNodes(document).map(({ operation: op, responses, ...node }): OperationSpec => {
    const security: unknown[] = [op.security, document.security].find(Array.isArray) ?? [];
    const byStatus = new Map(responses.map(([status, response]) => [status, readResponse(status, response)]));
    return {
      ...node,
      deprecated: op.deprecated === true,
      stability: typeof op['x-stability'] === 'string' ? op['x-stability'] : null,
      security: security.flatMap((req) => (isObject(req) ? Object.keys(req) : [])),
      parameters: node.parameters.map((p) => readParameter(document, p)),
      statuses: [...byStatus.keys()].sort((a, b) => a - b),
      responses: byStatus,
    };
  });
  const byId = new Map(operations.map((op) => [op.operationId, op]));
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
    orderStates: document['x-petstore-order-states'] as OrderStateMachine,
    validateSchema(name, value) {
      const validate = Object.hasOwn(validators.schemas, name) ? validators.schemas[name] : undefined;
      if (!validate) throw new Error(`no schema ${name} in the document`);
      return runValidator(validate, value);
    },
    validateResponseBody(operationId, status, text) {
      if (!contract.operation(operationId).responses.has(status))
        return violation('status', `status ${status} is not documented for ${operationId}`);
      // Keys hold a space, so no key names a member of Object.prototype.
      const validate = validators.responseBodies[responseBodyKey(operationId, status)];
      if (!validate)
        return text === '' ? { ok: true, value: undefined } : violation('body', 'must have no body');
      const parsed = parseExactJson(text);
      if (!parsed.ok) return violation('json', `is not valid JSON: ${parsed.error}`);
      return runValidator(validate, parsed.value);
    },
    validateParameter(operationId, location, name, raw) {
      // Header names are case-insensitive (RFC 9110 §5.1); the others are matched as written.
      const same = (p: ParameterSpec) =>
        location === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name;
      const param = contract.operation(operationId).parameters.find((p) => p.in === location && same(p));
      if (!param) throw new Error(`${operationId} declares no ${location} parameter ${name}`);
      const path = `/${param.name}`;
      if (raw === undefined)
        return param.required ? violation('required', 'is required', path) : { ok: true, value: undefined };
      const value = parseParameter(param, raw);
      if (!value.ok) return value;
      const validate = validators.parameters[parameterKey(operationId, param.in, param.name)];
      if (!validate) throw new Error(`no validator for ${operationId} ${param.in} parameter ${param.name}`);
      const verdict = runValidator<ExactJson>(validate, value.value);
      if (verdict.ok) return verdict;
      return { ok: false, error: verdict.error.map((v) => ({ ...v, path: path + v.path })) };
    },
  };
  return contract;
}
