/** JSON that keeps int64 values exact (D8); our own parser, as lossless-json was a tenth of the MSW entry. */
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

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;
const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON refuses raw control characters in strings.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERALS = Object.entries({ true: true, false: false, null: null } as Record<string, ExactJson>);

/** @example parseExactJson('{"id":9007199254740993}') // { ok: true, value: { id: 9007199254740993n } } */
export function parseExactJson(text: string): Result<ExactJson, string> {
  let at = 0;
  const fail = (expected: string): never => {
    const got = at < text.length ? `'${text[at]}'` : 'end of input';
    throw new SyntaxError(`${expected} but got ${got} at position ${at}`);
  };
  const skipSpace = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const match = pattern.exec(text)?.[0];
    if (match !== undefined) at += match.length;
    return match;
  };
  const readString = (): string => {
    const literal = token(STRING) ?? fail('A string');
    return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
  };
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
    const object: Record<string, ExactJson> = {};
    readList('}', 'value', () => {
      skipSpace();
      const keyAt = at;
      if (text[at] !== '"') fail('A quoted object key');
      const key = readString();
      skipSpace();
      if (text[at] !== ':') fail("A colon ':' after the property name");
      at++;
      const value = readValue();
      if (Object.hasOwn(object, key)) {
        if (stringifyExactJson(object[key]) === stringifyExactJson(value)) return;
        at = keyAt;
        fail(`A key given once, not '${key}' again,`);
      } else if (key === '__proto__') {
        // A plain assignment would set the prototype instead of adding the member.
        Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        object[key] = value;
      }
    });
    return object;
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
      return Number.isSafeInteger(value) || !INTEGER_LITERAL.test(number) ? value : BigInt(number);
    }
    const [word, literal] = LITERALS.find(([word]) => text.startsWith(word, at)) ?? fail('A JSON value');
    at += word.length;
    return literal;
  };
  try {
    const value = readValue();
    skipSpace();
    if (at < text.length) fail('The end of the text');
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function write(value: unknown): string | undefined {
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const prototype = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
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

/** @example stringifyExactJson({ id: 9007199254740993n }) // '{"id":9007199254740993}' */
export function stringifyExactJson(value: unknown): string {
  return write(value) ?? 'null';
}
