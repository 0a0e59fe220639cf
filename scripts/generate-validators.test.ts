/**
 * The generated validators are what a page with a strict CSP can run: no `new Function`, no `eval`, no
 * `require(`, and every schema the contract looks up is in them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentSchemas } from '../src/contract/document-schemas.js';
import { packageRoot } from '../src/contract/package-root.js';
import { DOCUMENT } from '../src/generated/document.js';
import { VALIDATORS } from '../src/generated/validators.js';
import { contractValidatorsModule, forbiddenIn } from './generate-validators.js';

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
});
