// D19: on a documented path a write carries no body, and one the document does not give that path no key.
import fc from 'fast-check';
import type { Contract, OperationSpec, ParameterSchema } from '../../contract/index.js';
import { type AuthHeader, NO_AUTH, VALID_AUTH } from '../../judge/exchange.js';
import { template, WRONG_BEARER } from '../checks/check.js';

export interface DrawnRequest {
  method: string;
  /** The path template's segments, `{id}` where a drawn id goes; the drawn ids in `ids`, in order. */
  segments: string[];
  ids: string[];
  /** Already encoded. */
  query: Array<[string, string]>;
  auth: AuthHeader;
  headers: Record<string, string>;
  body?: string;
}

const ID = '{id}';
const METHODS = ['GET', 'DELETE', 'POST', 'PUT', 'PATCH'] as const;

/** Escapes a broken decoder trips on: truncated UTF-8 (`%E0%A4%A`), a lone `%`, a surrogate, a NUL. */
const BROKEN_ESCAPES = [
  '%E0%A4%A',
  '%E0%A4',
  '%',
  '%%',
  '%zz',
  '%2',
  '%C3',
  '%FF',
  '%ED%A0%80',
  '%00',
  '%u0041',
];

/** Characters sent as they are in a segment or query value; `%` stays so that broken escapes reach the target. */
const KEPT = /[A-Za-z0-9\-._~!$'()*+,;:@%]/;

/** A drawn text as sent: percent-encoded outside {@link KEPT}, a lone surrogate as U+FFFD, no dot segment. */
function wireText(text: string): string {
  const out = [...text]
    .map((c) => (KEPT.test(c) ? c : /^[\uD800-\uDFFF]$/.test(c) ? '%EF%BF%BD' : encodeURIComponent(c)))
    .join('');
  return out === '' || /^(?:\.|%2e){1,2}$/i.test(out) ? `x${out}` : out;
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);

/** Numbers as a careless parser misreads them: signs, leading zeros, exponents, fractions, suffixes, overflow. */
const numberish = fc
  .tuple(
    fc.constantFrom('', '+', '-', ' ', '0', '00', '\t'),
    fc.bigInt({ min: 0n, max: 2n ** 70n }),
    fc.constantFrom('', 'e0', 'e3', 'E-2', '.0', '.5', 'abc', ' ', 'n', 'L', '%20', '%00'),
  )
  .map(([sign, digits, suffix]) => `${sign}${digits}${suffix}`);

const hex = fc.bigInt({ min: 0n, max: 2n ** 64n }).map((n) => `0x${n.toString(16)}`);

const brokenEscape = fc
  .tuple(
    fc.constantFrom('', '1', 'abc', '%41'),
    fc.constantFrom(...BROKEN_ESCAPES),
    fc.constantFrom('', '1', 'x'),
  )
  .map(([before, broken, after]) => `${before}${broken}${after}`);

// ASCII included (`3` as `%33`).
const fullyEncoded = fc
  .oneof(numberish, fc.string({ maxLength: 12 }))
  .map((text) =>
    [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 });
const long = fc.string({
  unit: fc.constantFrom(...'0123456789abcdefxyz-_.'.split('')),
  minLength: 256,
  maxLength: 4096,
});

const pathId = fc.oneof(int64, numberish, hex, brokenEscape, fullyEncoded, unicode, long).map(wireText);

/** Values for a parameter's schema: valid ones from its type and bounds, and every kind of invalid one. */
function valuesFor(schema: ParameterSchema): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [
    fc.constantFrom('', 'abc', '1.5', '-1', '0', '1e3', '99999999999999999999', 'true', 'null'),
    fc.string({ maxLength: 12 }),
  ];
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  if (types.includes('integer') || types.includes('number')) {
    const lo = typeof schema.minimum === 'number' ? schema.minimum : -1000;
    const hi = typeof schema.maximum === 'number' ? schema.maximum : 1000;
    choices.push(
      fc.integer({ min: lo, max: hi }).map(String),
      fc.constantFrom(String(lo - 1), String(hi + 1)),
    );
  }
  if (Array.isArray(schema.enum)) {
    choices.push(fc.constantFrom(...schema.enum.map(String)), fc.constant('not-in-the-enum'));
  }
  if (types.includes('boolean')) choices.push(fc.constantFrom('true', 'false', 'yes', '1'));
  return fc.oneof(...choices);
}

const UNDECLARED = ['limit', 'offset', 'id', 'orderId', 'status', 'q', 'debug', 'page', 'sort'];

function queryPairs(op: OperationSpec | null): fc.Arbitrary<Array<[string, string]>> {
  const declared = (op?.parameters ?? []).filter((p) => p.in === 'query');
  const pair = fc.oneof(
    ...declared.map((p) => fc.tuple(fc.constant(p.name), valuesFor(p.schema))),
    fc.tuple(
      fc.oneof(fc.constantFrom(...UNDECLARED), fc.stringMatching(/^[a-z][a-z_]{0,7}$/)),
      fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), fc.string({ maxLength: 10 }), brokenEscape),
    ),
  );
  return fc
    .array(pair, { maxLength: 3 })
    .map((pairs) => pairs.map(([name, value]): [string, string] => [wireText(name), wireText(value)]));
}

/** What a write outside the document is sent with (D19): no key in any spelling. */
const KEYLESS = [NO_AUTH, WRONG_BEARER, template('Bearer ')];

/** `Authorization` as sent: the key in every spelling a lenient server might take, and no usable key. */
const AUTH_CHOICES: readonly AuthHeader[] = [
  VALID_AUTH,
  ...KEYLESS,
  template('bearer $KEY'),
  template('BEARER $KEY'),
  template('Bearer  $KEY'),
  template('Bearer $KEY extra'),
  template('Basic $KEY'),
  template('$KEY'),
];

const UNSAFE = new Set(['DELETE', 'POST', 'PUT', 'PATCH']);

function headersFor(op: OperationSpec | null): fc.Arbitrary<Record<string, string>> {
  const declared = (op?.parameters ?? []).filter((p) => p.in === 'header');
  const extra = fc.constantFrom<Array<[string, string]>>(
    [],
    [['accept', '*/*']],
    [['x-request-id', 'fuzz-request']],
    [['if-match', '*']],
    [['x-http-method-override', 'GET']],
    [['content-type', 'application/json']],
  );
  // A header value outside visible ASCII would make fetch throw before anything is sent.
  const declaredValues = fc.tuple(
    ...declared.map((p) =>
      valuesFor(p.schema).map((v): [string, string] => [
        p.name.toLowerCase(),
        v.replace(/[^\x20-\x7e]/g, '?'),
      ]),
    ),
  );
  return fc.tuple(extra, declaredValues).map(([pairs, own]) => Object.fromEntries([...pairs, ...own]));
}

const BODIES = [
  '{}',
  '[]',
  'null',
  '{"reason":"fuzz"}',
  'not json',
  '{"id":"x"}',
  `{"a":"${'x'.repeat(2000)}"}`,
];

/** Requests to a path whose documented methods are `documented` (`null` outside the document), per D19. */
function drawn(
  segments: string[],
  methods: fc.Arbitrary<string>,
  op: OperationSpec | null,
  documented: readonly string[] | null,
): fc.Arbitrary<DrawnRequest> {
  const idCount = segments.filter((s) => s === ID).length;
  return methods.chain((method) => {
    const guarded = documented !== null && UNSAFE.has(method);
    const undocumented = guarded && !documented.includes(method);
    // fetch refuses a body on GET.
    const bodyless = method === 'GET' || (guarded && !undocumented);
    return fc.record({
      method: fc.constant(method),
      segments: fc.constant(segments),
      ids: fc.tuple(...Array.from({ length: idCount }, () => pathId)),
      query: queryPairs(op),
      auth: fc.constantFrom(...(undocumented ? KEYLESS : AUTH_CHOICES)),
      headers: headersFor(op),
      body: bodyless
        ? fc.constant(undefined)
        : fc.option(fc.constantFrom(...BODIES), { nil: undefined, freq: 2 }),
    });
  });
}

function templateSegments(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((s) => (/^\{.+\}$/.test(s) ? ID : s));
}

function operationRequest(op: OperationSpec, contract: Contract): fc.Arbitrary<DrawnRequest> {
  const segments = templateSegments(op.path);
  const own = op.method.toUpperCase();
  const methods = fc.oneof(
    { weight: 3, arbitrary: fc.constant(own) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  );
  const documented = contract.operations
    .filter((o) => templateSegments(o.path).join('/') === segments.join('/'))
    .map((o) => o.method.toUpperCase());
  return drawn(segments, methods, op, documented);
}

/** Paths outside the document: one segment past an id path, and unknown words at the top. */
function unknownRoute(contract: Contract): fc.Arbitrary<DrawnRequest> {
  const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).map((w) => `fuzz-${w}`);
  const idPaths = contract.operations
    .filter((op) => op.path.includes('{'))
    .map((op) => templateSegments(op.path));
  const shapes = fc.oneof(
    word.map((w) => [w]),
    ...idPaths.map((segments) => word.map((w) => [...segments, w])),
  );
  return shapes.chain((segments) => drawn(segments, fc.constantFrom(...METHODS), null, null));
}

/** The requests of the fuzz phase for a contract: its operations three times as often as unknown paths. */
export function fuzzRequests(contract: Contract): fc.Arbitrary<DrawnRequest> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.oneof(...contract.operations.map((op) => operationRequest(op, contract))) },
    { weight: 1, arbitrary: unknownRoute(contract) },
  );
}

/** Truncated UTF-8 escapes; two, because a digit of one (`4` of `%A4`) may be a listed order's id. */
const CORPUS_ESCAPES = ['%E0%A4%A', '%ED%A0%A'];

/** Requests every run sends first: each id operation at a truncated UTF-8 escape, the commonest crash. */
export function corpus(contract: Contract): DrawnRequest[] {
  const idOperations = contract.operations.filter((op) => op.path.includes('{'));
  return CORPUS_ESCAPES.flatMap((broken) =>
    idOperations.map((op) => {
      const segments = templateSegments(op.path);
      const ids = segments.filter((s) => s === ID).map(() => broken);
      return { method: op.method.toUpperCase(), segments, ids, query: [], auth: VALID_AUTH, headers: {} };
    }),
  );
}

export function pathOf(request: DrawnRequest): string {
  let next = 0;
  const path = request.segments.map((s) => (s === ID ? (request.ids[next++] ?? 'x') : s)).join('/');
  const query = request.query.map(([name, value]) => `${name}=${value}`).join('&');
  return `/${path}${query === '' ? '' : `?${query}`}`;
}
