/** Fixture text (YAML 1.2 or JSON), integers exact; apart, so the MSW entry carries no YAML parser. */
import { CORE_SCHEMA, defineScalarTag, load, NOT_RESOLVED, YAMLException } from 'js-yaml';
import { defaultContract } from '../contract/index.js';
import { expansionProblem, MAX_ALIASES } from '../contract/yaml-bounds.js';
import { fail } from '../result.js';
import { buildFixtures, FixtureError } from './fixtures.js';

// YAML 1.2 integers, exact (D8): a number while a double holds it, else a bigint (js-yaml's own would round).
const IMPLICIT_INTEGER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const EXPLICIT_INTEGER = /^[-+]?(?:[0-9]+|0b[01]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const SHORT_DECIMAL = /^[-+]?[0-9]{1,15}$/;

function exactInteger(source: string): number | bigint {
  // 15 digits always fit a double exactly: the common case skips BigInt.
  if (SHORT_DECIMAL.test(source)) return Number(source);
  const magnitude = BigInt(source.replace(/^[-+]/, '')); // BigInt reads no sign before 0x, 0o, 0b
  const value = source.startsWith('-') ? -magnitude : magnitude;
  // Beyond 2^53 the number rounds to one that is not safe: the bigint stays.
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

const exactIntegerTag = defineScalarTag<number | bigint>('tag:yaml.org,2002:int', {
  implicit: true,
  implicitFirstChars: ['-', '+', ...'0123456789'],
  resolve: (source, isExplicit) =>
    (isExplicit ? EXPLICIT_INTEGER : IMPLICIT_INTEGER).test(source) ? exactInteger(source) : NOT_RESOLVED,
  identify: (value) => typeof value === 'bigint' || Number.isInteger(value),
});

const FIXTURE_YAML = CORE_SCHEMA.withTags(exactIntegerTag);

/** What fixture data may expand to through aliases, as JSON text: twice the largest fixture file. */
const MAX_EXPANDED_BYTES = 64 * 1024 * 1024;

/** Parses fixture text (JSON is YAML) and checks it; a key given twice is refused with its line. */
export function parseFixtureText(text: string, source: string, contract = defaultContract()) {
  let data: unknown;
  try {
    data = load(text, { schema: FIXTURE_YAML, filename: source, maxAliases: MAX_ALIASES });
  } catch (error) {
    return fail(new FixtureError(source, [syntaxProblem(error, text)]));
  }
  const tooLarge = expansionProblem(data, text, MAX_EXPANDED_BYTES);
  if (tooLarge) return fail(new FixtureError(source, [tooLarge]));
  return buildFixtures(data, contract, source);
}

/** `line 2, column 1: duplicated mapping key "apiKeys"`, from js-yaml's exception. */
function syntaxProblem(error: unknown, text: string): string {
  if (!(error instanceof YAMLException)) return `cannot be parsed: ${String(error)}`;
  if (text.trim() === '' || /^\s*expected a document, but the input is empty/.test(error.reason)) {
    return 'holds no fixtures (it is empty or only comments); write `orders: []` for an empty set';
  }
  const mark = error.mark;
  const where = mark ? `line ${mark.line + 1}, column ${mark.column + 1}: ` : '';
  let reason = error.reason;
  if (reason === 'duplicated mapping key' && mark) {
    const key = /^\s*"?([^":\s]+)"?\s*:/.exec(text.slice(mark.position))?.[1];
    if (key !== undefined) reason = `the key "${key}" is given twice in the same mapping`;
  }
  return `is not valid YAML or JSON: ${where}${reason}`;
}
