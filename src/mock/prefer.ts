/** `Prefer: code=NNN` (`; example=NAME`) forces a documented answer, an undocumented 5xx a fault (D18). */
import { type OperationSpec, stringifyExactJson } from '../contract/index.js';
import { isObject } from '../contract/refs.js';
import { fail, ok } from '../result.js';
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

/** JSON text (`undefined` for none, 204) and an Error's `code` for the request log. */
type ForcedBody = { body: string | undefined; code?: string };

/** `headers`: `Preference-Applied` (RFC 7240 §3) and the fault marker, as they apply. */
export type ForcedResponse = ForcedBody & { status: number; headers: Record<string, string> };

type PreferRequest = { code: string; example: string | undefined };

const CODE = /(?:^|[\s,;])code\s*=\s*"?([^\s",;]*)"?/i;
const EXAMPLE = /(?:^|[\s,;])example\s*=\s*"?([^\s",;]*)"?/i;

/** Reads the preferences the mock honours; `undefined` when there is no `code`. */
export function parsePrefer(header: string | undefined): PreferRequest | undefined {
  const code = header === undefined ? undefined : CODE.exec(header)?.[1];
  return code === undefined ? undefined : { code, example: EXAMPLE.exec(header as string)?.[1] };
}

/** Raw parameters by name, or headers. */
type Strings = Readonly<Record<string, string>>;

/** One documented response: its examples by name, first first, the table's Error the first one is. */
interface Documented {
  status: number;
  examples: Map<string, ForcedBody>;
  namedError: MockErrorName | undefined;
  idParameter: string | undefined;
}

const codeOf = (example: unknown) =>
  isObject(example) && typeof example.code === 'string' ? example.code : undefined;

export function compilePrefer(operations: readonly OperationSpec[], settings: FaultSettings) {
  // key: `${operationId} ${status}`
  const documented = new Map<string, Documented>();
  for (const operation of operations) {
    const idParameter = operation.parameters.find((p) => p.in === 'path')?.name;
    for (const { status, mediaType, examples } of operation.responses.values()) {
      const bodies = new Map<string, ForcedBody>();
      if (mediaType === null) bodies.set('', { body: undefined });
      for (const [name, value] of examples) {
        bodies.set(name, {
          body: stringifyExactJson(value),
          code: status >= 400 ? codeOf(value) : undefined,
        });
      }
      const firstCode = codeOf(examples.values().next().value);
      const namedError = firstCode === undefined ? undefined : errorNameFor(firstCode, status);
      const entry = { status, examples: bodies, namedError, idParameter };
      documented.set(`${operation.operationId} ${status}`, entry);
    }
  }
  const { minimum, maximum } = settings.preferStatus;
  const marker = settings.header;

  const forcedError = (error: MockError, headers: Record<string, string>): ForcedResponse => ({
    status: error.spec.status,
    body: errorJson(error),
    code: error.spec.code,
    headers,
  });

  /** A documented status's first example, or the table's Error naming the id (saying `message`, if given). */
  const documentedAnswer = (entry: Documented, params: Strings, headers: Strings, message?: string) => {
    const error = entry.namedError;
    if (error !== undefined && (message !== undefined || CORE_ERRORS[error].message.includes('{id}'))) {
      const id = entry.idParameter === undefined ? undefined : params[entry.idParameter];
      return forcedError(mockError(error, { id, message }), headers);
    }
    const [first] = entry.examples.values();
    return first && { status: entry.status, ...first, headers };
  };

  return {
    /** The answer `Prefer` asks for, or the 400 `invalid_prefer` Error saying what may be asked. */
    prefer(operation: OperationSpec, prefer: PreferRequest, params: Strings) {
      const numeric = /^\d{3}$/.test(prefer.code);
      const entry = numeric ? documented.get(`${operation.operationId} ${prefer.code}`) : undefined;
      const status = Number(prefer.code);
      if (!entry) {
        if (numeric && status >= minimum && status <= maximum) {
          const headers = { 'preference-applied': `code=${status}`, [marker]: 'prefer' };
          return ok(forcedError(simulatedFault(status, settings), headers));
        }
        return fail(
          mockError('invalidPrefer', {
            message: `Prefer: code=${clip(prefer.code, 32)} is not a documented response of ${operation.operationId}; use one of ${operation.statuses.join(', ')}, or ${minimum}–${maximum} for a simulated fault.`,
          }),
        );
      }
      if (prefer.example === undefined) {
        const answer = documentedAnswer(entry, params, { 'preference-applied': `code=${status}` });
        if (answer) return ok(answer);
      } else {
        const chosen = entry.examples.get(prefer.example);
        const applied = `code=${status}; example=${prefer.example}`;
        if (chosen) return ok({ status, ...chosen, headers: { 'preference-applied': applied } });
      }
      const known = [...entry.examples.keys()].filter(Boolean);
      const message =
        known.length > 0
          ? `Prefer: example=${clip(prefer.example ?? '', 32)} is not an example of ${operation.operationId} ${prefer.code}; use one of ${known.join(', ')}.`
          : `${operation.operationId} ${prefer.code} has no example in the document to send.`;
      return fail(mockError('invalidPrefer', { message }));
    },

    /** A fault's status: the documented response when there is one, else a simulated-fault Error. */
    status(operation: OperationSpec, status: number, params: Strings, message?: string): ForcedResponse {
      const headers = { [marker]: 'control' };
      const entry = documented.get(`${operation.operationId} ${status}`);
      const answer = entry && documentedAnswer(entry, params, headers, message);
      return answer ?? forcedError(simulatedFault(status, settings, message), headers);
    },
  };
}
