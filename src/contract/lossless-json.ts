/** JSON with exact int64s (D8): our own parser, as lossless-json was a tenth of the MSW entry; held to its verdicts. */
import type { Result } from '../result.js';

/** A JSON value in which integers outside ±(2^53 − 1) are exact `bigint`s. */
export type ExactJson =
  | null
  | boolean
  | number
  | bigint
  | string
  | ExactJson[]
  | { [key: string]: ExactJson };

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON refuses raw control characters in strings.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

/**
 * Parses JSON text, keeping integers above 2^53 exact; an error names what was expected and where.
 *
 * @example parseExactJson('{"id":9007199254740993}') // { ok: true, value: { id: 9007199254740993n } }
 */
export function parseExactJson(text: string): Result<ExactJson, string> {
  let at = 0;
  const fail = (expected: string): never => {
    const got = at < text.length ? `'${text[at]}'` : 'end of input';
    throw new SyntaxError(`${expected} but got ${got} at position ${at}`);
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const match = pattern.exec(text)?.[0];
    if (match !== undefined) at += match.length;
    return match;
  };
  const skipSpace = () => token(WHITESPACE);
  const readString = (): string => {
    const literal = token(STRING) ?? fail('A string');
    return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
  };
  /** The members of an object or the items of an array, up to `close`, each read by `readOne`. */
  const readList = (close: string, what: string, readOne: () => void) => {
    at++;
    skipSpace();
    if (text[at] === close) return void at++;
    for (;;) {
      readOne();
      skipSpace();
      if (text[at] === close) return void at++;
      if (text[at] !== ',') fail(`A comma ',' or '${close}' after the ${what}`);
      at++;
    }
  };
  const readObject = (): ExactJson => {
    const members = new Map<string, ExactJson>();
    readList('}', 'value', () => {
      skipSpace();
      const keyAt = at;
      if (text[at] !== '"') fail('A quoted object key');
      const key = readString();
      skipSpace();
      if (text[at] !== ':') fail("A colon ':' after the property name");
      at++;
      const value = readValue();
      if (members.has(key) && stringifyExactJson(members.get(key)) !== stringifyExactJson(value)) {
        at = keyAt;
        fail(`A key given once, not '${key}' again,`);
      }
      members.set(key, value);
    });
    // `fromEntries` adds a `__proto__` key as a member, where an assignment would set the prototype.
    return Object.fromEntries(members);
  };
  const readValue = (): ExactJson => {
    skipSpace();
    const first = text[at];
    if (first === '{') return readObject();
    if (first === '[') {
      const array: ExactJson[] = [];
      readList(']', 'item', () => array.push(readValue()));
      return array;
    }
    if (first === '"') return readString();
    const number = token(NUMBER);
    if (number !== undefined) {
      const value = Number(number);
      // An integer a double cannot hold stays exact; a fraction or an exponent is a number.
      return Number.isSafeInteger(value) || /[.eE]/.test(number) ? value : BigInt(number);
    }
    const literal = token(LITERAL);
    return literal === undefined ? fail('A JSON value') : (JSON.parse(literal) as boolean | null);
  };
  try {
    const value = readValue();
    skipSpace();
    if (at < text.length) fail('The end of the text');
    return { ok: true, value };
  } catch (error) {
    // `fail`'s SyntaxError, or the RangeError of a nesting deeper than the stack.
    return { ok: false, error: (error as Error).message };
  }
}

/** The JSON text of a value, `undefined` for what JSON leaves out (`undefined`, functions). */
function write(value: unknown): string | undefined {
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const prototype = typeof value === 'object' && value !== null && Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) {
    const members: string[] = [];
    for (const [key, item] of Object.entries(value as object)) {
      const text = write(item);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Serialises a value to JSON, writing `bigint`s as exact integer literals.
 *
 * @example stringifyExactJson({ id: 9007199254740993n }) // '{"id":9007199254740993}'
 */
export function stringifyExactJson(value: unknown): string {
  return write(value) ?? 'null';
}
