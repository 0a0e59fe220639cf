/** The Ajv the toolkit compiles with: into the generated validators, and at run time for `--spec`. */
import { Ajv2020, Name } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { boundedRegExp } from './pattern-bounds.js';
import { FORMATS } from './validator-runtime.js';

// CommonJS under NodeNext: the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The name generated validators import {@link FORMATS} under (see `scripts/generate-validators.ts`). */
export const STANDALONE_FORMATS_NAME = 'runtimeFormats';

/** JSON Schema 2020-12 with our formats and OpenAPI's keywords; `standalone` prints an ES module (ajv-formats#68). */
export function createAjv({ standalone = false, messages = true } = {}): Ajv2020 {
  // No meta-schema (40 ms of every start-up): meta-schema.test.ts and the OpenAPI linter check instead.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateSchema: false,
    messages,
    // A page keeps `RegExp`; a document given at run time runs its patterns bounded (pattern-bounds.ts).
    code: standalone
      ? { source: true, esm: true, lines: true, formats: new Name(STANDALONE_FORMATS_NAME) }
      : { regExp: boundedRegExp },
    loopRequired: standalone ? 1 : undefined,
  });
  if (standalone) {
    // Their tracking cost the page bytes for keywords the document never uses; Ajv2020 reads it from `opts`.
    Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
    for (const keyword of ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor'])
      ajv.removeKeyword(keyword);
  } else {
    addFormats(ajv);
  }
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']); // OpenAPI 3.1's, for strict mode
  return ajv;
}
