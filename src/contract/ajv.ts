/** The Ajv the toolkit compiles with: into the generated validators, and at run time for `--spec`. */
import { Ajv2020, Name } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { boundedRegExp } from './pattern-bounds.js';
import { FORMATS } from './validator-runtime.js';

// CommonJS under NodeNext: the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** OpenAPI 3.1's keywords beyond JSON Schema 2020-12, for strict mode. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];

/** Left out of generated validators: their tracking cost the MSW page bytes for keywords the document never uses. */
export const NOT_GENERATED_KEYWORDS = [
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
] as const;

/** The name generated validators import {@link FORMATS} under (see `scripts/generate-validators.ts`). */
export const STANDALONE_FORMATS_NAME = 'runtimeFormats';

/**
 * JSON Schema 2020-12 with the formats of `validator-runtime.ts` and OpenAPI's keywords. `standalone` keeps
 * the source as an ES module importing our formats (ajv-formats would write a `require(`, its issue #68).
 *
 * @example createAjv().compile({ type: 'integer', format: 'int64' })(validationView(2n ** 63n)) // false
 */
export function createAjv(
  options: { verbose?: boolean; standalone?: boolean; messages?: boolean } = {},
): Ajv2020 {
  // No meta-schema (40 ms of every start-up): meta-schema.test.ts and the OpenAPI linter check instead.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateSchema: false,
    verbose: options.verbose === true,
    messages: options.messages !== false,
    // A document given at run time runs its patterns bounded (pattern-bounds.ts); the page keeps `RegExp`.
    ...(options.standalone === true
      ? {
          code: { source: true, esm: true, lines: true, formats: new Name(STANDALONE_FORMATS_NAME) },
          // The same errors with less code in a page.
          loopRequired: 1,
        }
      : { code: { regExp: boundedRegExp } }),
  });
  if (options.standalone === true) {
    // Ajv2020 turns the tracking on in its constructor; its options object is where it reads them.
    Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
    for (const keyword of NOT_GENERATED_KEYWORDS) ajv.removeKeyword(keyword);
  } else {
    addFormats(ajv);
  }
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  return ajv;
}
