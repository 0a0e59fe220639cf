/** A document's operations and schemas by key: the generator and `compile.ts` both read this, so they agree. */
import { HTTP_METHODS } from './model.js';
import { isObject, type JsonObject, prepareSchema, resolveRef } from './refs.js';
import { parameterKey, responseBodyKey } from './validators.js';

/** Each operation of a document, its parameters (the path item's first) and responses, `$ref`s followed. */
export function operationNodes(document: JsonObject) {
  return Object.entries(isObject(document.paths) ? document.paths : {}).flatMap(([path, node]) => {
    const pathItem = resolveRef(document, node) as JsonObject;
    return HTTP_METHODS.flatMap((method) => {
      const operation = pathItem[method];
      if (!isObject(operation)) return [];
      const parameters = [pathItem.parameters, operation.parameters]
        .flatMap((list) => (Array.isArray(list) ? list : []))
        .map((parameter) => resolveRef(document, parameter) as JsonObject);
      const responses = Object.entries(isObject(operation.responses) ? operation.responses : {}).map(
        ([status, response]) => [Number(status), resolveRef(document, response) as JsonObject] as const,
      );
      return [{ path, method, operationId: String(operation.operationId), operation, parameters, responses }];
    });
  });
}

/** Every response's documented headers by operationId and status; a `$ref` to nothing reads `{}` (not compiled at load). */
export function documentedResponseHeaders(document: JsonObject) {
  const follow = (node: unknown): JsonObject => {
    try {
      const found = resolveRef(document, node);
      return isObject(found) ? found : {};
    } catch {
      return {};
    }
  };
  const headersOf = (response: JsonObject) =>
    Object.entries(follow(response.headers)).map(([shownAs, value]) => {
      const header = follow(value);
      return { shownAs, header, schema: follow(header.schema) };
    });
  return new Map(
    operationNodes(document).map(({ operationId, responses }) => [
      operationId,
      new Map(responses.map(([status, response]) => [status, headersOf(response)])),
    ]),
  );
}

export function firstMedia(response: JsonObject): [string | null, JsonObject | undefined] {
  const [mediaType, media] = Object.entries(isObject(response.content) ? response.content : {})[0] ?? [];
  return mediaType === undefined ? [null, undefined] : [mediaType, isObject(media) ? media : undefined];
}

/** Component, body and parameter schemas by name or key, and the `x-` keywords a strict Ajv must be told about. */
export function documentSchemas(document: JsonObject) {
  const keywords = new Set<string>();
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const responseBodies = new Map<string, unknown>();
  const parameters = new Map<string, unknown>();
  for (const op of operationNodes(document)) {
    for (const parameter of op.parameters) {
      const key = parameterKey(op.operationId, String(parameter.in), String(parameter.name));
      parameters.set(key, prepareSchema(isObject(parameter.schema) ? parameter.schema : {}, keywords));
    }
    for (const [status, response] of op.responses) {
      const schema = firstMedia(response)[1]?.schema;
      if (schema !== undefined)
        responseBodies.set(responseBodyKey(op.operationId, status), prepareSchema(schema, keywords));
    }
  }
  return {
    components: new Map(
      Object.entries(schemas).map(([name, schema]) => [name, prepareSchema(schema, keywords)]),
    ),
    responseBodies,
    parameters,
    keywords: [...keywords],
  };
}
