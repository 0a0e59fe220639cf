/** Judges each exchange with the suite's judgements and the observer, plus the client's side (D20). */

import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { bearerToken, type Contract } from '../contract/index.js';
import { matchOperation, type ObservedExchange, reportRequest } from '../judge/exchange.js';
import type { TransportErrorKind } from '../judge/http-outcome.js';
import { Observer, type SeenExchange, seenExchange } from '../judge/observer.js';
import { redactDeep } from '../judge/redact.js';
import { finding, judgeExchange, type RatedFinding } from '../judge/rules.js';
import { requestPath } from '../mock/request-target.js';
import { fail, ok } from '../result.js';
import type { FindingLog, Party, ProxyFinding } from './findings.js';
import type { CapturedExchange } from './forward.js';
import { KeyIndex, querySecrets, secretOf } from './key-index.js';
import { type ProxyErrorResponse, proxyError } from './proxy-errors.js';
import type { Recorder } from './record.js';
import { CLIENT_RULES } from './report.js';
import { pathBelowBase, type Upstream } from './upstream.js';

/** The request headers a report shows: enough to repeat the request, no cookies or other secrets. */
const REPORTED_HEADERS = ['authorization', 'accept', 'content-type', 'prefer', 'x-mock-session'];

/** The upstream faults the suite's client names alike; the rest are `other`. */
const SHARED_KINDS: ReadonlySet<string> = new Set(['refused', 'unresolved', 'timeout', 'reset']);

/** The most exchanges, and body bytes, whose cross-request judgement waits for a double click to settle. */
const MAX_HELD = 1_000;
const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** A cancel in flight: while two of one order are, the cross-request rules wait (a double click's loser may answer first). */
export interface Flight {
  order: string;
  done: boolean;
}

type Logged = Array<Omit<ProxyFinding, 'seq'>>;

interface Pending {
  seen: SeenExchange;
  bytes: number;
  crossRequest: () => Logged;
}

const DEFAULT_DECODED_BYTES = 1024 * 1024;
const UNRESERVED_ESCAPE = /%(2[DdEe]|3\d|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])/g;
const unescaped = (_match: string, hex: string) => String.fromCharCode(Number.parseInt(hex, 16));

/** The target as the mock's router reads it: `/v1/st%6Fre/./orders?x=1` is `/v1/store/orders?x=1` (RFC 3986 §6.2.2.2). */
export function judgedTarget(target: string): string {
  const query = target.indexOf('?');
  const hash = target.indexOf('#');
  const rest = query === -1 ? '' : target.slice(query, hash > query ? hash : undefined);
  return requestPath(target).replace(UNRESERVED_ESCAPE, unescaped) + rest;
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  identity: (bytes) => bytes,
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** The body as text, `null` when cut, undecodable or past `maxBytes` (635 bytes of brotli can decode to 400 MiB). */
function bodyText(captured: CapturedExchange, maxBytes: number): string | null {
  const response = captured.response;
  if (!response || response.body.truncated) return null;
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase() || 'identity';
  const decode = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  try {
    return decode ? decode(response.body.bytes, { maxOutputLength: maxBytes }).toString('utf8') : null;
  } catch {
    return null;
  }
}

type Judged = RatedFinding & { party: Party };

/** A rule threw on an exchange: a warning, and the proxy carries on (issue 25). */
const UNJUDGED = { rule: 'unjudged', citation: 'issue 25', level: 'warning', party: 'server' } as const;

/** The exchange as the suite's judgements read it, with only the request headers a report shows. */
function observedOf(
  captured: CapturedExchange,
  upstream: Upstream,
  path: string,
  secret: string,
  text: string | null,
): ObservedExchange {
  const { response, fault } = captured;
  const shown: Record<string, string> = {};
  for (const name of REPORTED_HEADERS) {
    const value = captured.requestHeaders[name];
    if (value !== undefined) shown[name] = value;
  }
  const url = `${upstream.protocol}//${upstream.host}${captured.target}`;
  const request = reportRequest(captured.method, url, shown, secret);
  if (fault || !response) {
    const kind = fault && SHARED_KINDS.has(fault.kind) ? (fault.kind as TransportErrorKind) : 'other';
    const message = fault?.message ?? 'no answer from the upstream';
    return { request, path, outcome: fail({ kind, message }) };
  }
  const { status, headers, body } = response;
  return { request, path, outcome: ok({ status, headers, text: text ?? '', bytes: body.total }) };
}

export interface TrafficJudgeOptions {
  contract: Contract;
  upstream: Upstream;
  log: FindingLog;
  /** `--errors`: a failure of the server's answer is replaced by a 502 naming it. */
  replaceViolations: boolean;
  judgeClient: boolean;
  /** The most bytes a compressed body is decoded to for judging; past it, it is unjudged. */
  decodedBytes?: number;
  soleClient?: boolean;
  record?: Pick<Recorder, 'see'> | undefined;
}

function ownKeys(secret: string, target: string): string[] {
  return [secret, ...querySecrets(target)].filter((key) => key !== '');
}

/** One per proxy: numbers exchanges and tells keys apart without keeping them. */
export class TrafficJudge {
  readonly tracker: Observer;
  readonly keys = new KeyIndex();
  readonly statuses = new Map<string, Set<number>>();
  exchanges = 0;
  unjudgedBodies = 0;
  private readonly flights = new Map<string, number>();
  /** Orders with two cancels in flight at once; while any is open, the observer's feed waits in `held`. */
  private readonly contested = new Set<string>();
  private held: Pending[] = [];
  private heldBytes = 0;

  constructor(readonly options: TrafficJudgeOptions) {
    this.tracker = new Observer(options.contract, { soleClient: options.soleClient });
  }

  /** A request has come in: a cancel of a valid order id is tracked until {@link judge} or {@link settle}. */
  opened(method: string, target: string): Flight | null {
    const judged = judgedTarget(target);
    const path = pathBelowBase(judged, this.options.upstream.basePath) ?? judged;
    const order = this.tracker.orderOf(method, path)?.id ?? null;
    if (order === null) return null;
    this.flights.set(order, (this.flights.get(order) ?? 0) + 1);
    return { order, done: false };
  }

  /** A flight is over; the exchanges held for a double click are judged once no contested order is in flight. */
  settle(flight: Flight | null): Logged {
    if (flight !== null && !flight.done) {
      flight.done = true;
      const left = (this.flights.get(flight.order) ?? 1) - 1;
      if (left > 0) this.flights.set(flight.order, left);
      else this.flights.delete(flight.order);
    }
    if (this.held.length === 0) return [];
    const open = [...this.contested].some((order) => this.flights.has(order));
    if (open && this.held.length < MAX_HELD && this.heldBytes < MAX_HELD_BYTES) return [];
    return this.flush();
  }

  flush(): Logged {
    const held = this.tracker.order(this.held);
    this.held = [];
    this.heldBytes = 0;
    this.contested.clear();
    return held.flatMap((p) => p.crossRequest());
  }

  /** The cross-request judgement of one exchange: now, or once the double click it may be part of settles. */
  private observe(pending: Pending, flight: Flight | null): Logged {
    const rival = flight !== null && (this.flights.get(flight.order) ?? 0) > 1;
    if (rival) this.contested.add(flight.order);
    if (rival || this.held.length > 0) {
      this.held.push(pending);
      this.heldBytes += pending.bytes;
      return this.settle(flight);
    }
    if (flight !== null) this.settle(flight);
    return pending.crossRequest();
  }

  private unjudged(n: number, captured: CapturedExchange, error: unknown): Logged {
    const secret = secretOf(captured.requestHeaders.authorization);
    const reason = error instanceof Error ? error.message : String(error);
    const message = `the proxy could not judge this exchange (${reason}); it was forwarded as it came`;
    const expected = 'an exchange the proxy can judge';
    const finding = { message, expected, request: null, actual: null, schemaViolations: [] };
    return this.log(n, captured, captured.target, this.keys.label(secret), [{ ...UNJUDGED, finding }]);
  }

  private log(n: number, captured: CapturedExchange, path: string, scope: string, found: Judged[]): Logged {
    if (found.length === 0) return [];
    const at = new Date(captured.startedAt).toISOString();
    const own = ownKeys(secretOf(captured.requestHeaders.authorization), captured.target);
    const keys = [...new Set([...own, ...this.keys.secrets()])];
    const { method, response } = captured;
    const status = response?.status ?? null;
    return found.map(({ rule, citation, level, party, finding }) => {
      const entry = { exchange: n, at, rule, citation, level, party, scope, method, path, status, finding };
      // Any part (path, session, echoed headers, body) may hold a key; with none, query credentials still go.
      const redacted = (keys.length > 0 ? keys : ['']).reduce((value, key) => redactDeep(value, key), entry);
      this.options.log.add(redacted);
      return redacted;
    });
  }

  /** Judges one exchange; under `--errors`, the 502 that replaces a failed answer. */
  judge(captured: CapturedExchange, flight: Flight | null = null): ProxyErrorResponse | null {
    try {
      return this.judgeOne(captured, flight);
    } catch (error) {
      this.unjudged(this.exchanges, captured, error);
      if (flight !== null) this.settle(flight);
      return null;
    }
  }

  private judgeOne(captured: CapturedExchange, flight: Flight | null): ProxyErrorResponse | null {
    const { upstream } = this.options;
    const { method, requestHeaders: headers } = captured;
    const n = ++this.exchanges;
    const secret = secretOf(headers.authorization);
    const session = headers['x-mock-session'];
    const keyLabel = this.keys.label(secret);
    const own = ownKeys(secret, captured.target);
    // A key the upstream accepted is held apart from refused ones, which anyone can send by the dozen.
    const accepted = captured.response !== null && captured.response.status !== 401;
    for (const key of own) this.keys.hold(key, accepted);
    const scope = session ? `${keyLabel}, session ${JSON.stringify(session.slice(0, 64))}` : keyLabel;
    const target = judgedTarget(captured.target);
    const path = pathBelowBase(target, upstream.basePath) ?? target;
    const text = bodyText(captured, this.options.decodedBytes ?? DEFAULT_DECODED_BYTES);
    const bodyJudged = captured.response === null || text !== null;
    if (!bodyJudged) this.unjudgedBodies += 1;
    const observed = observedOf(captured, upstream, path, secret, text);
    const operationId = matchOperation(this.options.contract, method, path);
    const status = captured.fault ? null : (captured.response?.status ?? null);
    if (operationId && status !== null) {
      this.statuses.set(operationId, (this.statuses.get(operationId) ?? new Set()).add(status));
    }

    // A client that stalled its own body got the proxy's 408; the upstream was never asked to answer.
    const stalled = captured.fault?.kind === 'client-stalled';
    const alone = stalled ? [] : judgeExchange(this.options.contract, observed, secret);
    const found: Judged[] = alone
      .filter((r) => bodyJudged || (r.rule !== 'body' && r.rule !== 'error-body'))
      .map((r) => ({ ...r, party: 'server' }));
    if (this.options.judgeClient) {
      found.push(...this.clientFindings(observed, path, secret, operationId, captured));
    }
    const { startedAt, durationMs } = captured;
    const seen = seenExchange(observed, headers.authorization, startedAt, startedAt + durationMs, text);
    const logged = this.log(n, captured, path, scope, found);
    const crossRequest = (): Logged => {
      let found: Judged[];
      try {
        found = this.tracker.observe({ key: keyLabel, orders: scope }, seen, n).map((f) => ({
          ...f,
          party: 'server',
          finding: finding(observed, secret, f.message, f.expected),
        }));
        this.options.record?.see(seen, this.tracker.compared(scope));
      } catch (error) {
        return this.unjudged(n, captured, error);
      }
      return this.log(n, captured, path, scope, found);
    };
    const bytes = (captured.response?.body.bytes.length ?? 0) + (text?.length ?? 0);
    logged.push(...this.observe({ seen, bytes, crossRequest }, flight));
    if (!this.options.replaceViolations || captured.fault) return null;
    // A failure found here for an exchange held earlier cannot replace its answer: it has been sent.
    const broken = logged.find((f) => f.exchange === n && f.party === 'server' && f.level === 'failure');
    if (!broken) return null;
    return proxyError(
      'contractViolation',
      `the upstream's answer to ${broken.method} ${broken.path} (${status}) breaks the contract: ${broken.finding.message} (${broken.citation})`,
    );
  }

  /** What the client sent that the contract does not allow; the server's answer is judged on its own. */
  private clientFindings(
    observed: ObservedExchange,
    path: string,
    secret: string,
    operationId: string | null,
    captured: CapturedExchange,
  ): Judged[] {
    const { method, requestBody, requestHeaders } = captured;
    const { authorization } = requestHeaders;
    const stalled = captured.fault?.kind === 'client-stalled';
    const documented = !stalled && operationId !== null;
    const bearer = bearerToken(authorization) !== null;
    const order = documented ? this.tracker.orderOf(method, path) : null;
    const noKey =
      authorization === undefined
        ? 'no Authorization header'
        : 'an Authorization header without a Bearer token';
    // A CORS preflight needs no documented operation (D14).
    const undocumented = !stalled && operationId === null && method !== 'OPTIONS';
    const refused = documented && bearer && captured.response?.status === 401;
    const broken: Array<false | [rule: string, message: string, expected: string]> = [
      stalled && [
        'client.stalled',
        `the client stopped sending its request body (${requestBody.total} bytes sent); the proxy answered 408`,
        'a whole request, sent without a pause longer than --timeout',
      ],
      undocumented && [
        'client.undocumented',
        `the client called ${method} ${path}, which the document does not list`,
        'a documented operation',
      ],
      documented &&
        !bearer && ['client.no-key', `the client sent ${noKey}`, 'Authorization: Bearer <API_KEY>'],
      refused && [
        'client.key-refused',
        "the server refused the client's key (401)",
        'a key the server accepts',
      ],
      order?.id === null && [
        'client.malformed-id',
        `the client sent the order id ${JSON.stringify(order.raw)}, which is not an int64 integer`,
        'an int64 order id, as listed by GET /store/orders',
      ],
      documented &&
        requestBody.total > 0 && [
          'client.body',
          `the client sent a request body (${requestBody.total} bytes) to ${operationId}, which takes none`,
          'no request body',
        ],
    ];
    return broken
      .filter((rule) => rule !== false)
      .map(([rule, message, expected]) => {
        const found = finding(observed, secret, message, expected);
        const [citation = ''] = CLIENT_RULES[rule] ?? [];
        return { rule, citation, level: 'warning', party: 'client', finding: found };
      });
  }
}
