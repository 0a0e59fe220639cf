/**
 * The schemas of a document that the contract validates with, each under the key the contract looks it up
 * by: the component schemas, each documented response body and each declared parameter. Both ways of
 * compiling them read this list (the generator at build time, `compile.ts` at run time), so they cannot
 * disagree on what is validated.
 */
import { HTTP_METHODS } from './model.js';
import { isObject, type JsonObject, prepareSchema, resolveRef } from './refs.js';
import { parameterKey, responseBodyKey } from './validators.js';

export interface DocumentSchemas {
  /** Component schemas by name, `$ref`s rewritten to `SCHEMA_ID_BASE`. */
  components: ReadonlyMap<string, unknown>;
  /** Response body schemas by {@link responseBodyKey}. */
  responseBodies: ReadonlyMap<string, unknown>;
  /** Parameter schemas by {@link parameterKey}. */
  parameters: ReadonlyMap<string, unknown>;
  /** The `x-` keywords the schemas use, which a strict Ajv must be told about. */
  keywords: readonly string[];
}

/** A declared parameter as the document has it (its `$ref` followed). */
export function parameterNodes(
  document: JsonObject,
  pathItem: JsonObject,
  operation: JsonObject,
): JsonObject[] {
  const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  const own = Array.isArray(operation.parameters) ? operation.parameters : [];
  return [...shared, ...own].map((node) => resolveRef(document, node) as JsonObject);
}

/** The body schema of a response, when it documents one (the first media type's). */
function bodySchemaNode(response: JsonObject): unknown {
  const content = isObject(response.content) ? response.content : {};
  const media = Object.values(content)[0];
  return isObject(media) ? media.schema : undefined;
}

/**
 * Every schema of the document the contract validates with.
 *
 * @example documentSchemas(DOCUMENT).parameters.keys() // 'cancelOrder path orderId', 'getPet path petId'
 */
export function documentSchemas(document: JsonObject): DocumentSchemas {
  const keywords = new Set<string>();
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const responseBodies = new Map<string, unknown>();
  const parameters = new Map<string, unknown>();
  for (const pathItemNode of Object.values(isObject(document.paths) ? document.paths : {})) {
    const pathItem = resolveRef(document, pathItemNode) as JsonObject;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const operationId = String(operation.operationId);
      for (const parameter of parameterNodes(document, pathItem, operation)) {
        const key = parameterKey(operationId, String(parameter.in), String(parameter.name));
        parameters.set(key, prepareSchema(isObject(parameter.schema) ? parameter.schema : {}, keywords));
      }
      for (const [status, responseNode] of Object.entries(
        isObject(operation.responses) ? operation.responses : {},
      )) {
        const schema = bodySchemaNode(resolveRef(document, responseNode) as JsonObject);
        if (schema !== undefined) {
          responseBodies.set(responseBodyKey(operationId, Number(status)), prepareSchema(schema, keywords));
        }
      }
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
