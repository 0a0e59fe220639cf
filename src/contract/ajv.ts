/**
 * The Ajv the toolkit compiles schemas with: at build time into the generated validators, at run time for
 * a document given with `--spec` (Node only). Code that only runs validators imports `validators.ts`,
 * never this module, so it carries no schema compiler.
 */
import { Ajv2020, Name } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { boundedRegExp } from './pattern-bounds.js';
import { FORMATS } from './validator-runtime.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Keywords of OpenAPI 3.1 that JSON Schema 2020-12 does not know; ajv's strict mode must be told. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];

/**
 * The keywords of JSON Schema 2020-12 that need Ajv to track, in every generated validator, which
 * properties and items were evaluated, and which dynamic anchors are in scope. Generated validators are
 * built without them: the tracking was a sixth of a kilobyte of every page's MSW entry, gzipped, for
 * keywords neither the document nor the fixture schema uses. A schema that uses one fails the
 * generation (strict mode: unknown keyword) rather than being checked wrongly; a document given with
 * `--spec` compiles with all of 2020-12.
 */
export const NOT_GENERATED_KEYWORDS = [
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
] as const;

/** The name generated validators import {@link FORMATS} under (see `scripts/generate-validators.ts`). */
export const STANDALONE_FORMATS_NAME = 'runtimeFormats';

/**
 * The Ajv the toolkit validates with: JSON Schema 2020-12, the formats of `validator-runtime.ts` (exact
 * int64 on values passed through `validationView`), and OpenAPI's extra keywords. Other JSON Schemas of
 * the project (the fixture file's) compile with it too.
 *
 * With `standalone`, it keeps each validator's source for Ajv's standalone code (without
 * {@link NOT_GENERATED_KEYWORDS}), as an ES module whose
 * formats are an import of ours: ajv-formats would otherwise name them with a `require(` (ajv-formats
 * #68), and only the formats of `validator-runtime.ts` are known, so a document using another one fails
 * the generation instead of a page.
 *
 * @example createAjv().compile({ type: 'integer', format: 'int64' })(validationView(2n ** 63n)) // false
 */
export function createAjv(
  options: { verbose?: boolean; standalone?: boolean; messages?: boolean } = {},
): Ajv2020 {
  // validateSchema: false skips compiling the 2020-12 meta-schema (about 40 ms of every start-up); the
  // schemas are checked against it in src/contract/meta-schema.test.ts and by the OpenAPI linter instead.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateSchema: false,
    verbose: options.verbose === true,
    messages: options.messages !== false,
    // A document given at run time runs its patterns bounded (pattern-bounds.ts); the generated validators
    // keep `new RegExp`, so no check reaches the page.
    ...(options.standalone === true
      ? {
          code: { source: true, esm: true, lines: true, formats: new Name(STANDALONE_FORMATS_NAME) },
          // A loop over `required` instead of a test per property: the same errors, less code in a page.
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
