/**
 * `Prefer: code=NNN` (like Prism) forces a documented response without touching state; `example=NAME` picks
 * an example. An undocumented 5xx is a simulated fault (D18). Other preferences are ignored (RFC 7240 §2).
 */
import { type OperationSpec, stringifyExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import {
  CORE_ERRORS,
  clip,
  errorJson,
  errorNameFor,
  type MockError,
  type MockErrorName,
  mockError,
} from './errors.js';
import { type FaultSettings, simulatedFault } from './faults.js';

export interface ForcedResponse {
  status: number;
  /** JSON text; `undefined` for a response without a body (204). */
  body: string | undefined;
  /** `Preference-Applied` (RFC 7240 §3) and the fault marker, as they apply. */
  headers: Record<string, string>;
}

export interface PreferRequest {
  code: string;
  example: string | undefined;
}

const CODE = /(?:^|[\s,;])code\s*=\s*"?([^\s",;]*)"?/i;
const EXAMPLE = /(?:^|[\s,;])example\s*=\s*"?([^\s",;]*)"?/i;

/** Reads the preferences the mock honours; `undefined` when there is no `code`. */
export function parsePrefer(header: string | undefined): PreferRequest | undefined {
  if (header === undefined) return undefined;
  const code = CODE.exec(header)?.[1];
  if (code === undefined) return undefined;
  return { code, example: EXAMPLE.exec(header)?.[1] };
}

/** The raw path parameters of the request, as the router matched them. */
type RawParams = Readonly<Record<string, string>>;

/** One documented response, ready to send. */
interface Documented {
  /** Example name → JSON text (`undefined` for no body), first example first. */
  examples: Map<string, string | undefined>;
  /** The table's Error that the first example is, built per request (its `{id}` the requested one). */
  namedError: MockErrorName | undefined;
  /** The path parameter that names the resource. */
  idParameter: string | undefined;
}

function namedErrorOf(example: unknown, status: number): MockErrorName | undefined {
  if (typeof example !== 'object' || example === null) return undefined;
  const code = (example as { code?: unknown }).code;
  return typeof code === 'string' ? errorNameFor(code, status) : undefined;
}

/**
 * Prepares every documented response of every operation for forcing.
 *
 * @example compilePrefer(contract.operations, settings).prefer(contract.operation('listOrders'), { code: '503', example: undefined }, {})
 * // ok: 503 {"code":"simulated_fault",…}
 */
export function compilePrefer(operations: readonly OperationSpec[], settings: FaultSettings) {
  // key: `${operationId} ${status}`
  const documented = new Map<string, Documented>();
  for (const operation of operations) {
    const idParameter = operation.parameters.find((p) => p.in === 'path')?.name;
    for (const response of operation.responses.values()) {
      const examples = new Map<string, string | undefined>();
      if (response.mediaType === null) examples.set('', undefined);
      for (const [name, value] of response.examples) examples.set(name, stringifyExactJson(value));
      const first = response.examples.values().next().value;
      documented.set(`${operation.operationId} ${response.status}`, {
        examples,
        namedError: namedErrorOf(first, response.status),
        idParameter,
      });
    }
  }
  const { minimum, maximum } = settings.preferStatus;
  const marker = settings.header;

  const forcedError = (error: MockError, headers: Record<string, string>): ForcedResponse => ({
    status: error.spec.status,
    body: errorJson(error),
    headers,
  });

  /**
   * The default answer for a documented status: the first example, or the table's Error naming the id;
   * with a `message`, the table's Error saying it.
   */
  const documentedAnswer = (
    entry: Documented,
    status: number,
    params: RawParams,
    headers: Record<string, string>,
    message?: string,
  ): ForcedResponse | undefined => {
    const error = entry.namedError;
    if (error !== undefined && (message !== undefined || CORE_ERRORS[error].message.includes('{id}'))) {
      const id = entry.idParameter === undefined ? undefined : params[entry.idParameter];
      return forcedError(mockError(error, { id, message }), headers);
    }
    const [name] = entry.examples.keys();
    return name === undefined ? undefined : { status, body: entry.examples.get(name), headers };
  };

  return {
    /** The answer `Prefer` asks for, or the 400 `invalid_prefer` Error saying what may be asked. */
    prefer(
      operation: OperationSpec,
      prefer: PreferRequest,
      params: RawParams,
    ): Result<ForcedResponse, MockError> {
      const entry = /^\d{3}$/.test(prefer.code)
        ? documented.get(`${operation.operationId} ${prefer.code}`)
        : undefined;
      const status = Number(prefer.code);
      if (!entry) {
        if (/^\d{3}$/.test(prefer.code) && status >= minimum && status <= maximum) {
          return ok(
            forcedError(simulatedFault(status, settings), {
              'preference-applied': `code=${status}`,
              [marker]: 'prefer',
            }),
          );
        }
        return fail(
          mockError('invalidPrefer', {
            message: `Prefer: code=${clip(prefer.code, 32)} is not a documented response of ${operation.operationId}; use one of ${operation.statuses.join(', ')}, or ${minimum}–${maximum} for a simulated fault.`,
          }),
        );
      }
      const applied = { 'preference-applied': `code=${prefer.code}` };
      if (prefer.example === undefined) {
        const answer = documentedAnswer(entry, status, params, applied);
        if (answer) return ok(answer);
      } else if (entry.examples.has(prefer.example)) {
        return ok({
          status,
          body: entry.examples.get(prefer.example),
          headers: { 'preference-applied': `code=${prefer.code}; example=${prefer.example}` },
        });
      }
      const known = [...entry.examples.keys()].filter(Boolean);
      const message =
        known.length > 0
          ? `Prefer: example=${clip(prefer.example ?? '', 32)} is not an example of ${operation.operationId} ${prefer.code}; use one of ${known.join(', ')}.`
          : `${operation.operationId} ${prefer.code} has no example in the document to send.`;
      return fail(mockError('invalidPrefer', { message }));
    },

    /** A fault's status: the documented response when there is one, else a simulated-fault Error. */
    status(operation: OperationSpec, status: number, params: RawParams, message?: string): ForcedResponse {
      const headers = { [marker]: 'control' };
      const entry = documented.get(`${operation.operationId} ${status}`);
      const answer = entry && documentedAnswer(entry, status, params, headers, message);
      return answer ?? forcedError(simulatedFault(status, settings, message), headers);
    },
  };
}
