/**
 * Judges each exchange that passed through: the suite's own judgements of one exchange
 * (src/judge/rules.ts), the client's side of the request, and the rules that span requests
 * (state-tracker.ts). Every finding goes to the log; under `--errors` a failure of the server's answer
 * also decides the 502 that replaces it.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { type Contract, parseInt64 } from '../contract/index.js';
import { matchOperation, type ObservedExchange, reportRequest } from '../judge/exchange.js';
import type { HttpOutcome, TransportErrorKind } from '../judge/http-outcome.js';
import { StateTracker } from '../judge/observer.js';
import { finding, judgeExchange, type RatedFinding } from '../judge/rules.js';
import type { Finding, Level } from '../judge/types.js';
import type { FindingLog, Party, ProxyFinding } from './findings.js';
import type { CapturedExchange, UpstreamFault } from './forward.js';
import { KeyIndex, secretOf } from './key-index.js';
import { type ProxyErrorResponse, proxyError } from './proxy-errors.js';
import { pathBelowBase, type Upstream } from './upstream.js';

/** The request headers a report shows: enough to repeat the request, no cookies or other secrets. */
const REPORTED_HEADERS = ['authorization', 'accept', 'content-type', 'prefer', 'x-mock-session'];

const TRANSPORT_KINDS: Record<UpstreamFault['kind'], TransportErrorKind> = {
  refused: 'refused',
  unresolved: 'unresolved',
  timeout: 'timeout',
  reset: 'reset',
  'not-http': 'other',
  other: 'other',
};

/** The response headers a verdict of one exchange depends on (D10, D11, D15, redirects). */
const VERDICT_HEADERS = ['content-type', 'content-encoding', 'deprecation', 'sunset', 'allow', 'location'];
const MAX_CLEAN_VERDICTS = 512;
const MAX_REMEMBERED_BODY = 64 * 1024;

/** A usable bearer token (§5, D7): the scheme case-insensitive, a non-empty token. */
const BEARER = /^bearer +\S+/i;

/** The body as text for judging; `null` when it cannot be judged (cut at the bound, or undecodable). */
function bodyText(captured: CapturedExchange): string | null {
  const response = captured.response;
  if (!response || response.body.truncated) return null;
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  try {
    const bytes = response.body.bytes;
    const decoded =
      encoding === '' || encoding === 'identity'
        ? bytes
        : encoding === 'gzip' || encoding === 'x-gzip'
          ? gunzipSync(bytes)
          : encoding === 'deflate'
            ? inflateSync(bytes)
            : encoding === 'br'
              ? brotliDecompressSync(bytes)
              : null;
    return decoded === null ? null : decoded.toString('utf8');
  } catch {
    return null;
  }
}

function outcomeOf(captured: CapturedExchange, text: string | null): HttpOutcome {
  const { response, fault } = captured;
  if (fault || !response) {
    const kind = fault ? TRANSPORT_KINDS[fault.kind] : 'other';
    return { ok: false, error: { kind, message: fault?.message ?? 'no answer from the upstream' } };
  }
  return {
    ok: true,
    value: {
      status: response.status,
      headers: response.headers,
      text: text ?? '',
      bytes: response.body.total,
    },
  };
}

/** The order id of a cancel path, as canonical decimal text; `null` when it is not an int64 (D9). */
function orderIdOf(path: string): { raw: string; id: string | null } | null {
  const match = /^\/store\/orders\/([^/?]+)(?:\?.*)?$/.exec(path);
  if (!match?.[1]) return null;
  let raw = match[1];
  try {
    raw = decodeURIComponent(raw);
  } catch {
    return { raw, id: null };
  }
  // Every order id is read with the one int64 grammar (D8).
  const parsed = parseInt64(raw);
  return { raw, id: parsed.ok ? String(parsed.value) : null };
}

interface Judged {
  rule: string;
  citation: string;
  level: Level;
  party: Party;
  finding: Finding;
}

export interface TrafficJudgeOptions {
  /** The contract every exchange is judged against. */
  contract: Contract;
  upstream: Upstream;
  log: FindingLog;
  /** `--errors`: a failure of the server's answer is replaced by a 502 naming it. */
  replaceViolations: boolean;
  /** Judge the client's requests too (off for a client that errs on purpose, like the conformance suite). */
  judgeClient: boolean;
}

/**
 * One instance per proxy: numbers exchanges, tells keys apart without keeping them, and remembers what
 * the cross-request rules need.
 *
 * @example const judge = new TrafficJudge({ contract, upstream, log, replaceViolations: false, judgeClient: true }); judge.judge(captured)
 */
export class TrafficJudge {
  readonly tracker = new StateTracker();
  readonly keys = new KeyIndex();
  /** Statuses seen per documented operation, for the coverage line. */
  readonly statuses = new Map<string, Set<number>>();
  exchanges = 0;
  /** Answers judged clean, by everything else the verdict depends on (see verdictKey): the raw body and its text. */
  private readonly clean = new Map<string, { bytes: Buffer; text: string }>();
  /** Answers whose body was not judged: over the copy bound, or in an encoding that could not be read. */
  unjudgedBodies = 0;

  constructor(private readonly options: TrafficJudgeOptions) {}

  judge(captured: CapturedExchange): ProxyErrorResponse | null {
    const { upstream, log } = this.options;
    const n = ++this.exchanges;
    const headers = captured.requestHeaders;
    const secret = secretOf(headers.authorization);
    const session = headers['x-mock-session'];
    const keyLabel = this.keys.label(secret);
    const scope = session ? `${keyLabel}, session ${JSON.stringify(session.slice(0, 64))}` : keyLabel;
    const path = pathBelowBase(captured.target, upstream.basePath) ?? captured.target;
    // Most traffic repeats itself: an answer byte for byte the same as one judged clean, under the same
    // key, is clean again, and its text is the one already decoded (no copy, no decompression, and the
    // state tracker sees the very same string as its last list).
    const key = this.verdictKey(captured, path);
    const remembered = key === null ? undefined : this.clean.get(key);
    const repeat =
      remembered !== undefined &&
      captured.response !== null &&
      remembered.bytes.equals(captured.response.body.bytes);
    const text = repeat ? remembered.text : bodyText(captured);
    const bodyJudged = captured.response === null || text !== null;
    if (!bodyJudged) this.unjudgedBodies += 1;
    // The reported exchange (its redaction is the costly part) is built only when a rule needs it.
    let observedOnce: ObservedExchange | undefined;
    const observed = (): ObservedExchange => {
      if (observedOnce) return observedOnce;
      const shown: Record<string, string> = {};
      for (const name of REPORTED_HEADERS) {
        const value = headers[name];
        if (value !== undefined) shown[name] = value;
      }
      observedOnce = {
        request: reportRequest(
          captured.method,
          `${upstream.protocol}//${upstream.host}${captured.target}`,
          shown,
          secret,
        ),
        path,
        outcome: outcomeOf(captured, text),
      };
      return observedOnce;
    };
    const operationId = matchOperation(this.options.contract, captured.method, path);
    const status = captured.fault ? null : (captured.response?.status ?? null);
    if (operationId && status !== null) {
      const seen = this.statuses.get(operationId) ?? new Set<number>();
      seen.add(status);
      this.statuses.set(operationId, seen);
    }

    const alone = repeat ? [] : this.judgeAlone(captured, key, text, observed);
    const found: Judged[] = alone
      .filter((r: RatedFinding) => bodyJudged || (r.rule !== 'body' && r.rule !== 'error-body'))
      .map((r) => ({ ...r, party: 'server' as const }));
    if (this.options.judgeClient) {
      found.push(...this.clientFindings(observed, path, secret, operationId, captured));
    }
    if (status !== null && text !== null && BEARER.test(headers.authorization ?? '')) {
      found.push(...this.stateFindings(observed, path, secret, scope, operationId, status, text, n));
    }

    const at = found.length > 0 ? new Date(captured.startedAt).toISOString() : '';
    for (const f of found) {
      const entry: Omit<ProxyFinding, 'seq'> = {
        exchange: n,
        at,
        rule: f.rule,
        citation: f.citation,
        level: f.level,
        party: f.party,
        scope,
        method: captured.method,
        path,
        status: captured.response?.status ?? null,
        finding: f.finding,
      };
      log.add(entry);
    }
    if (!this.options.replaceViolations || captured.fault) return null;
    const broken = found.find((f) => f.party === 'server' && f.level === 'failure');
    if (!broken) return null;
    return proxyError(
      'contractViolation',
      `the upstream's answer to ${captured.method} ${path} (${status}) breaks the contract: ${broken.finding.message} (${broken.citation})`,
    );
  }

  /**
   * Everything but the body that the verdict of an exchange alone depends on, as a short key; `null` when
   * the answer is not one to remember (a fault, a body cut at the bound or over 64 KiB). The body itself
   * is compared whole (a memcmp, cheaper than hashing it), so 512 verdicts weigh at most 32 MiB.
   */
  private verdictKey(captured: CapturedExchange, path: string): string | null {
    const response = captured.response;
    if (!response || captured.fault || response.body.truncated) return null;
    if (response.body.bytes.length > MAX_REMEMBERED_BODY) return null;
    return [
      captured.method,
      path,
      BEARER.test(captured.requestHeaders.authorization ?? ''),
      response.status,
      ...VERDICT_HEADERS.map((name) => response.headers[name] ?? ''),
    ].join('\u0000');
  }

  /** The suite's judgements of the exchange alone; a clean verdict is remembered under `key`. */
  private judgeAlone(
    captured: CapturedExchange,
    key: string | null,
    text: string | null,
    observed: () => ObservedExchange,
  ): RatedFinding[] {
    const rated = judgeExchange(
      this.options.contract,
      observed(),
      secretOf(captured.requestHeaders.authorization),
    );
    if (key !== null && text !== null && captured.response && rated.length === 0) {
      if (this.clean.size >= MAX_CLEAN_VERDICTS) this.clean.clear();
      // A copy: the captured bytes may be a slice of a larger socket read.
      this.clean.set(key, { bytes: Buffer.from(captured.response.body.bytes), text });
    }
    return rated;
  }

  /** What the client sent that the contract does not allow; the server's answer is judged on its own. */
  private clientFindings(
    observed: () => ObservedExchange,
    path: string,
    secret: string,
    operationId: string | null,
    captured: CapturedExchange,
  ): Judged[] {
    const out: Judged[] = [];
    const client = (rule: string, citation: string, message: string, expected: string) =>
      out.push({
        rule,
        citation,
        level: 'warning',
        party: 'client',
        finding: finding(observed(), secret, message, expected),
      });
    const { method } = captured;
    if (operationId === null) {
      // A CORS preflight needs no documented operation (D14).
      if (method !== 'OPTIONS') {
        client(
          'client.undocumented',
          'D10',
          `the client called ${method} ${path}, which the document does not list`,
          'a documented operation',
        );
      }
      return out;
    }
    const authorization = captured.requestHeaders.authorization;
    if (!BEARER.test(authorization ?? '')) {
      client(
        'client.no-key',
        '§5, D7',
        authorization === undefined
          ? 'the client sent no Authorization header'
          : 'the client sent an Authorization header without a Bearer token',
        'Authorization: Bearer <API_KEY>',
      );
    } else if (captured.response?.status === 401) {
      client(
        'client.key-refused',
        '§5',
        "the server refused the client's key (401)",
        'a key the server accepts',
      );
    }
    if (operationId === 'cancelOrder') {
      const id = orderIdOf(path);
      if (id && id.id === null) {
        client(
          'client.malformed-id',
          '§4.2, D9',
          `the client sent the order id ${JSON.stringify(id.raw)}, which is not an int64 integer`,
          'an int64 order id, as listed by GET /store/orders',
        );
      }
    }
    if (captured.requestBody.total > 0) {
      client(
        'client.body',
        '§4',
        `the client sent a request body (${captured.requestBody.total} bytes) to ${operationId}, which takes none`,
        'no request body',
      );
    }
    return out;
  }

  /** The cross-request rules, for a list read or a cancel with a bearer token. */
  private stateFindings(
    observed: () => ObservedExchange,
    path: string,
    secret: string,
    scope: string,
    operationId: string | null,
    status: number,
    text: string,
    n: number,
  ): Judged[] {
    const found =
      operationId === 'listOrders' && status === 200
        ? this.tracker.list(scope, text, n)
        : operationId === 'cancelOrder'
          ? (() => {
              const id = orderIdOf(path)?.id;
              return id ? this.tracker.cancel(scope, id, status, n) : [];
            })()
          : [];
    return found.map((f) => ({
      rule: f.rule,
      citation: f.citation,
      level: f.level,
      party: 'server',
      finding: finding(observed(), secret, f.message, f.expected),
    }));
  }
}
