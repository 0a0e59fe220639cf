/**
 * The generated validators are what a page with a strict CSP can run: no `new Function`, no `eval`, no
 * `require(`, and every schema the contract looks up is in them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentSchemas } from '../src/contract/document-schemas.js';
import { defaultContract } from '../src/contract/index.js';
import { packageRoot } from '../src/contract/package-root.js';
import { DOCUMENT } from '../src/generated/document.js';
import { validateFixtures } from '../src/generated/fixtures-validator.js';
import { VALIDATORS } from '../src/generated/validators.js';
import {
  compactErrors,
  contractValidatorsModule,
  forbiddenIn,
  inlineSchemaReads,
} from './generate-validators.js';

const GENERATED = join(packageRoot(), 'src', 'generated');

describe('forbiddenIn', () => {
  const cases = [
    {
      name: 'finds new Function',
      given: 'const f = new Function("return 1");',
      want: ['Function('],
    },
    { name: 'finds Function without new', given: 'Function ("x")', want: ['Function('] },
    { name: 'finds eval', given: 'eval("1")', want: ['eval('] },
    {
      name: 'finds a require',
      given: 'const u = require("ajv/dist/runtime/uri").default;',
      want: ['require('],
    },
    {
      name: 'passes plain validator code',
      given: 'validate0.evaluated = {}; typeof data == "function"',
      want: [],
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(forbiddenIn(given)).toEqual(want);
  });

  it.each(['validators.ts', 'fixtures-validator.ts'])(
    'finds none in the committed src/generated/%s',
    (name) => {
      expect(forbiddenIn(readFileSync(join(GENERATED, name), 'utf8'))).toEqual([]);
    },
  );
});

describe('the generated contract validators', () => {
  it('hold one validator for every schema the contract looks up', () => {
    const schemas = documentSchemas(DOCUMENT);
    expect(Object.keys(VALIDATORS.schemas)).toEqual([...schemas.components.keys()]);
    expect(Object.keys(VALIDATORS.responseBodies)).toEqual([...schemas.responseBodies.keys()]);
    expect(Object.keys(VALIDATORS.parameters)).toEqual([...schemas.parameters.keys()]);
  });

  it('refuse a format the page would not know, naming it, instead of generating a broken module', () => {
    const document = structuredClone(DOCUMENT) as {
      components: { schemas: { Order: { properties: object } } };
    };
    Object.assign(document.components.schemas.Order.properties, {
      email: { type: 'string', format: 'email' },
    });
    expect(() => contractValidatorsModule(document)).toThrow(/unknown format "email"/);
  });

  it('refuse a keyword they are generated without, naming it, instead of checking it wrongly', () => {
    const document = structuredClone(DOCUMENT) as { components: { schemas: { Order: object } } };
    Object.assign(document.components.schemas.Order, { unevaluatedProperties: false });
    expect(() => contractValidatorsModule(document)).toThrow(/unknown keyword: "unevaluatedProperties"/);
  });

  it('leave schemaPath out of the fixture validator only (fixtures.ts writes its messages)', () => {
    expect(readFileSync(join(GENERATED, 'fixtures-validator.ts'), 'utf8')).not.toContain('schemaPath');
    expect(readFileSync(join(GENERATED, 'validators.ts'), 'utf8')).toContain('schemaPath:"#/');
  });

  it('carry no tracking of evaluated properties or dynamic anchors', () => {
    for (const name of ['validators.ts', 'fixtures-validator.ts']) {
      expect(readFileSync(join(GENERATED, name), 'utf8')).not.toMatch(/evaluated|dynamicAnchors/);
    }
  });
});

describe('inlineSchemaReads', () => {
  const schema = 'const schema0 = {"properties":{"status":{"enum":["a","b"]},"x-y":{"const":[1,2]}}};';

  it('writes a value read out of a schema in place and leaves the schema out', () => {
    const code = `${schema}\nconst err = {params:{allowedValues: schema0.properties.status.enum}};`;
    expect(inlineSchemaReads(code)).toBe('const err = {params:{allowedValues: ["a","b"]}};');
  });

  it('follows quoted keys and indexes', () => {
    const code = `${schema}\nf(schema0.properties["x-y"].const[1]);`;
    expect(inlineSchemaReads(code)).toBe('f(2);');
  });

  it('keeps a schema the code still names as a whole', () => {
    const code = `${schema}\nvalidate0.schema = schema0;`;
    expect(inlineSchemaReads(code)).toBe(code);
  });

  it('refuses a read its schema cannot answer, instead of writing undefined', () => {
    expect(() => inlineSchemaReads(`${schema}\nf(schema0.properties.missing.enum);`)).toThrow(
      /reads schema0\.properties\.missing\.enum/,
    );
  });

  it('leaves the committed fixture validator its enum: an error still names the allowed values', () => {
    expect(readFileSync(join(GENERATED, 'fixtures-validator.ts'), 'utf8')).not.toMatch(/\bschema\d+\b/);
    expect(validateFixtures({ orders: [{ id: 1, status: 'lost' }] })).toBe(false);
    expect(validateFixtures.errors?.[0]).toMatchObject({
      keyword: 'enum',
      params: { allowedValues: ['pending', 'shipped', 'cancelled'] },
    });
  });
});

describe('the contract, whose generated type, minimum and maximum errors carry no message', () => {
  it.each([
    { given: { id: 'x' }, want: 'must be integer' },
    { given: { shipDate: 1 }, want: 'must be string' },
    { given: { complete: 'yes' }, want: 'must be boolean' },
    { given: [], want: 'must be object' },
    { name: 'Error', given: { code: 'x', message: 'm', status: 700 }, want: 'must be <= 599' },
    { name: 'Error', given: { code: 'x', message: 'm', status: 99 }, want: 'must be >= 100' },
  ])('words them as Ajv does: $want', ({ name = 'Order', given, want }) => {
    const verdict = defaultContract().validateSchema(name as 'Order' | 'Error', given as never);
    expect(verdict.ok ? [] : verdict.error.map((violation) => violation.message)).toEqual([want]);
  });

  it('keeps the messages of other keywords', () => {
    expect(readFileSync(join(GENERATED, 'validators.ts'), 'utf8')).not.toMatch(/message:"must be /);
    expect(readFileSync(join(GENERATED, 'validators.ts'), 'utf8')).toContain("must have required property '");
  });
});

describe('compactErrors', () => {
  const ajvCode = [
    'function validate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){',
    'let vErrors = null;',
    'if(typeof data !== "string"){',
    'const err0 = {instancePath,keyword:"type",params:{type: "string"}};',
    'if(vErrors === null){\nvErrors = [err0];\n}\nelse {\nvErrors.push(err0);\n}',
    'errors++;',
    '}',
    'validate0.errors = vErrors;',
    'return errors === 0;',
  ].join('\n');

  it('adds each error in one statement and drops the options no validator reads', () => {
    const compact = compactErrors(ajvCode);
    expect(compact).toContain(
      '(vErrors ??= []).push({instancePath,keyword:"type",params:{type: "string"}});',
    );
    expect(compact).not.toContain('err0');
    expect(compact).not.toContain('if(vErrors === null)');
    expect(compact).toContain('function validate0(data, {instancePath=""}={}){');
    expect(compact).not.toMatch(/\berrors\b(?!\s*=\s*vErrors)/);
    expect(compact).toContain('return vErrors === null;');
  });

  it('keeps the count when the code reads it otherwise (anyOf, oneOf)', () => {
    const reading = `${ajvCode}\nconst _errs0 = errors;`;
    expect(compactErrors(reading)).toContain('return errors === 0;');
  });

  it('tests an integer with Number.isInteger', () => {
    const integer =
      'if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){';
    expect(compactErrors(integer)).toBe('if(!(Number.isInteger(data8))){');
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, '7', true])(
    'leaves the committed fixture validator refusing %s as an integer id',
    (id) => {
      expect(validateFixtures({ pets: [{ id }] })).toBe(false);
      expect(validateFixtures.errors).toEqual([
        { instancePath: '/pets/0/id', keyword: 'type', params: { type: 'integer' } },
      ]);
    },
  );

  it('keeps the options when a validator reads one', () => {
    const reading = `${ajvCode}\nif(rootData){}`;
    expect(compactErrors(reading)).toContain('rootData=data}={}');
  });

  it('leaves the committed validators with every error of a bad fixture file, in order', () => {
    expect(validateFixtures({ apiKeys: [''], orders: [{ status: 'lost', extra: 1 }], x: 1 })).toBe(false);
    expect(validateFixtures.errors?.map((error) => [error.instancePath, error.keyword])).toEqual([
      ['', 'additionalProperties'],
      ['/apiKeys/0', 'minLength'],
      ['/apiKeys/0', 'pattern'],
      ['/orders/0', 'required'],
      ['/orders/0', 'additionalProperties'],
      ['/orders/0/status', 'enum'],
    ]);
  });
});
