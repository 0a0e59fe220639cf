/**
 * Ajv's standalone code for the schemas the toolkit validates with, as committed modules of
 * `src/generated/`: the contract's (`validators.ts`: every component schema, documented response body and
 * declared parameter of the document) and the fixture file's (`fixtures-validator.ts`). A page runs them
 * with no `new Function`, no `eval` and no Ajv; `scripts/generate-types.ts` writes and drift-checks them.
 */
import { Name } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { createAjv } from '../src/contract/compile.js';
import { documentSchemas } from '../src/contract/document-schemas.js';
import { type JsonObject, SCHEMA_ID_BASE } from '../src/contract/refs.js';

// CommonJS with a default export; under NodeNext the callable sits on `.default`.
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/** The name generated validators import `FORMATS` of `validator-runtime.ts` under. */
const FORMATS_NAME = 'runtimeFormats';

/** The toolkit's Ajv, printing an ES module that imports our formats instead of ajv-formats (ajv-formats#68). */
function standaloneAjv(messages = true) {
  const ajv = createAjv({
    messages,
    code: { source: true, esm: true, lines: true, formats: new Name(FORMATS_NAME) },
    loopRequired: 1,
  });
  // Their tracking cost the page bytes for keywords the document never uses; Ajv2020 reads it from `opts`.
  Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
  for (const keyword of ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor'])
    ajv.removeKeyword(keyword);
  return ajv;
}

/** The helpers Ajv names with a `require(` into its runtime, and what the generated code uses instead. */
const RUNTIME_REQUIRES: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/ucs2length").default': 'runtimeUcs2length',
};

/** What a CSP without `'unsafe-eval'` blocks, and what a browser cannot resolve. */
const FORBIDDEN: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Function(', /\bFunction\s*\(/],
  ['eval(', /\beval\s*\(/],
  ['require(', /\brequire\s*\(/],
];

/** The forbidden constructs a generated module holds; empty when it is clean. */
export function forbiddenIn(code: string): string[] {
  return FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

/** The `schemaPath` of an error object in Ajv's standalone code. */
const SCHEMA_PATH = /schemaPath:"(?:[^"\\]|\\.)*",/g;

/** `const schema0 = {…};`, as Ajv's standalone code declares each schema: one line of JSON. */
const SCHEMA_DECLARATION = /^const (schema\d+) = (.*);$/;
/** One step into a schema: `.properties`, `["x-y"]` or `[0]`. */
const STEP = String.raw`\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]`;
/** A value the code reads out of a schema: `schema0.properties.status.enum`, `schema0["x-y"]`. */
const SCHEMA_READ = new RegExp(String.raw`\b(schema\d+)((?:${STEP})+)`, 'g');

/**
 * The code with every value it reads out of a schema written in place (an enum's `allowedValues` for
 * its errors), and the schemas no longer read left out: otherwise one `enum` keeps its whole schema in
 * every page (a fifth of a kilobyte of the MSW entry, gzipped).
 */
export function inlineSchemaReads(code: string): string {
  const schemas = new Map<string, unknown>();
  const lines = code.split('\n');
  for (const line of lines) {
    const [, name, json] = SCHEMA_DECLARATION.exec(line) ?? [];
    if (name !== undefined) schemas.set(name, JSON.parse(json as string));
  }
  const inline = (read: string, name: string, path: string): string => {
    if (!schemas.has(name)) return read;
    let value = schemas.get(name);
    for (const [, key, quoted, index] of path.matchAll(new RegExp(STEP, 'g'))) {
      const step = key ?? (quoted === undefined ? index : (JSON.parse(quoted) as string));
      value = (value as Record<string, unknown> | undefined)?.[step as string];
    }
    if (value === undefined) throw new Error(`Ajv's standalone code reads ${read}, which its schema lacks`);
    return JSON.stringify(value);
  };
  // Declarations are JSON, left as they are; every other line has its reads written in place.
  const written = lines.map((line) =>
    SCHEMA_DECLARATION.test(line) ? line : line.replace(SCHEMA_READ, inline),
  );
  const reads = written.filter((line) => !SCHEMA_DECLARATION.test(line)).join('\n');
  return written
    .filter((line) => {
      const declared = SCHEMA_DECLARATION.exec(line)?.[1];
      return declared === undefined || new RegExp(`\\b${declared}\\b`).test(reads);
    })
    .join('\n');
}

/** `if(vErrors === null){ vErrors = [err0]; } else { vErrors.push(err0); }`, as Ajv adds each error. */
const ERROR_PUSH =
  /if\(vErrors === null\)\{\nvErrors = \[(err\d+)\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}/g;
/** `const err0 = {…};` then its push: the object goes straight into the push. */
const ERROR_DECLARED = /^const (err\d+) = (\{.*\});\n\(vErrors \?\?= \[\]\)\.push\(\1\);$/gm;
/** Ajv's test of `type: integer`, which is what `Number.isInteger` says, word for word. */
const INTEGER_TEST =
  /\(\(typeof (\w+) == "number"\) && \(!\(\1 % 1\) && !isNaN\(\1\)\)\) && \(isFinite\(\1\)\)/g;
/**
 * An error of `type`, `minimum` or `maximum` with Ajv's message, which says no more than its params:
 * `must be integer`, `must be <= 599` (toViolations in src/contract/validators.ts writes it back).
 */
const TYPE_MESSAGE =
  /(keyword:"(?:type|minimum|maximum)",params:\{(?:type: "(\w+)"|comparison: "([<>]=)", limit: (\d+))\}),message:"must be (?:\2|\3 \4)"/g;
/** The options every validator function takes, of which a root validator reads only `instancePath`. */
const UNREAD_OPTIONS = ', parentData, parentDataProperty, rootData=data}';

/**
 * Ajv's code, a little smaller in a page with the same errors: each error added in one statement
 * (`(vErrors ??= []).push({…})`) and not counted apart, integers tested with `Number.isInteger`, and
 * options no validator reads left out of the signatures.
 */
export function compactErrors(code: string): string {
  let compact = code
    .replace(ERROR_PUSH, '(vErrors ??= []).push($1);')
    .replace(ERROR_DECLARED, '(vErrors ??= []).push($2);')
    .replace(INTEGER_TEST, 'Number.isInteger($1)');
  // With no other reads of `errors` (no anyOf, oneOf or not), it counts the pushes: vErrors says as much.
  const counted = compact.replace(/^let errors = 0;\n|^errors\+\+;\n/gm, '');
  const counts = !/\berrors\b(?! === 0;$)/m.test(counted.replace(/\.errors\b/g, ''));
  if (counts) compact = counted.replace(/^return errors === 0;$/gm, 'return vErrors === null;');
  const unread = !/\b(?:parentData|parentDataProperty|rootData)\b/.test(
    compact.split(UNREAD_OPTIONS).join(''),
  );
  return unread ? compact.split(UNREAD_OPTIONS).join('}') : compact;
}

function standaloneModule(
  ajv: ReturnType<typeof createAjv>,
  exports: Record<string, string>,
  typeImport = '',
): string {
  let code = compactErrors(inlineSchemaReads(standaloneCode(ajv, exports)));
  for (const [required, name] of Object.entries(RUNTIME_REQUIRES)) code = code.split(required).join(name);
  const forbidden = forbiddenIn(code);
  if (forbidden.length > 0) {
    throw new Error(
      `Ajv's standalone code still holds ${forbidden.join(', ')}: map it in RUNTIME_REQUIRES of scripts/generate-validators.ts`,
    );
  }
  return `// @ts-nocheck: Ajv's output, checked by Ajv's own tests and by ours, not typed.
import { FORMATS as ${FORMATS_NAME}, ucs2length as runtimeUcs2length } from '../contract/validator-runtime.js';
${typeImport}${code.replace(/^"use strict";\n?/, '')}
`;
}

/** The component a schema is nothing but a `$ref` to (`Error`), or `undefined`. */
function referencedComponent(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const keys = Object.keys(schema);
  const ref = (schema as { $ref?: unknown }).$ref;
  if (keys.length !== 1 || typeof ref !== 'string' || !ref.startsWith(SCHEMA_ID_BASE)) return undefined;
  return ref.slice(SCHEMA_ID_BASE.length);
}

/** The component a schema is a plain list of (`{ type: 'array', items: { $ref: Order } }`), or `undefined`. */
function listedComponent(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, items, ...rest } = schema as { type?: unknown; items?: unknown };
  return type === 'array' && Object.keys(rest).length === 0 ? referencedComponent(items) : undefined;
}

/** `{ "listOrders 200": v3, … }`, the table from keys to the exports of the standalone code. */
function table(names: ReadonlyMap<string, string>): string {
  const rows = [...names].map(([key, name]) => `    ${JSON.stringify(key)}: ${name},`);
  return rows.length === 0 ? '{}' : `{\n${rows.join('\n')}\n  }`;
}

/**
 * The contract's validators: one export per schema, and `VALIDATORS`, the tables the contract looks them
 * up in (`ContractValidators`).
 */
export function contractValidatorsModule(document: JsonObject): string {
  const ajv = standaloneAjv();
  const schemas = documentSchemas(document);
  for (const keyword of schemas.keywords) ajv.addKeyword(keyword);
  const exports: Record<string, string> = {};
  const tables = { schemas: new Map<string, string>(), responseBodies: new Map(), parameters: new Map() };
  const add = (kind: keyof typeof tables, key: string, id: string) => {
    const name = `v${Object.keys(exports).length}`;
    exports[name] = id;
    tables[kind].set(key, name);
  };
  for (const [name, schema] of schemas.components) {
    ajv.addSchema(schema as object, SCHEMA_ID_BASE + name);
    add('schemas', name, SCHEMA_ID_BASE + name);
  }
  // A body that is only a `$ref` to a component (every Error response, the Pet) reuses the component's
  // code, under the component's export name. A body or parameter schema written exactly like an earlier
  // one (orderId and petId are both int64) reuses its validator: both are roots, so their errors match.
  const written = new Map<string, string>();
  for (const [kind, entries] of [
    ['responseBodies', schemas.responseBodies],
    ['parameters', schemas.parameters],
  ] as const) {
    for (const [key, schema] of entries) {
      const component = referencedComponent(schema);
      if (kind === 'responseBodies' && component !== undefined && tables.schemas.has(component)) {
        const target = JSON.stringify(SCHEMA_ID_BASE + component);
        tables.responseBodies.set(
          key,
          `/* @__PURE__ */ referencing(${tables.schemas.get(component)}, ${target})`,
        );
        continue;
      }
      // A list of a component (listOrders 200) runs the component's code on each item, likewise.
      const listed = listedComponent(schema);
      if (kind === 'responseBodies' && listed !== undefined && tables.schemas.has(listed)) {
        const target = JSON.stringify(SCHEMA_ID_BASE + listed);
        tables.responseBodies.set(
          key,
          `/* @__PURE__ */ itemsReferencing(${tables.schemas.get(listed)}, ${target})`,
        );
        continue;
      }
      const same = written.get(JSON.stringify(schema));
      if (same !== undefined) {
        tables[kind].set(key, same);
        continue;
      }
      const id = `https://petstore.contract/${kind}/${encodeURIComponent(key)}`;
      ajv.addSchema(schema as object, id);
      add(kind, key, id);
      written.set(JSON.stringify(schema), tables[kind].get(key) as string);
    }
  }
  const typeImport =
    "import { type ContractValidators, itemsReferencing, referencing } from '../contract/validators.js';\n";
  // Ajv's `must be <type>` and `must be <= 599`, which toViolations writes from the params.
  const code = standaloneModule(ajv, exports, typeImport).replace(TYPE_MESSAGE, '$1');
  return `${code}
/** Every validator of the document, by the keys the contract looks them up by. */
export const VALIDATORS: ContractValidators = {
  schemas: ${table(tables.schemas)},
  responseBodies: ${table(tables.responseBodies)},
  parameters: ${table(tables.parameters)},
};
`;
}

/**
 * The fixture file's validator, `validateFixtures`. Not verbose, without Ajv's messages and without
 * `schemaPath`: fixtures.ts writes each message from the error's keyword and params, quoting the
 * offending value from the data by its `instancePath`; Ajv's copies of the data, the schema path and a
 * message in every error would only add to the code a page loads.
 */
export function fixturesValidatorModule(fixturesSchema: JsonObject): string {
  const ajv = standaloneAjv(false);
  ajv.addSchema(fixturesSchema, 'fixtures');
  const typeImport = "import type { FixtureValidator } from '../contract/validators.js';\n";
  const code = standaloneModule(ajv, { v0: 'fixtures' }, typeImport).replace(SCHEMA_PATH, '');
  return `${code}
/** Checks the content of a fixture file; its errors name where (\`instancePath\`) and why. */
export const validateFixtures: FixtureValidator = v0;
`;
}
