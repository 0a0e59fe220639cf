/**
 * `Prefer: code=NNN` (like Prism): forces one of the operation's documented responses, with the body of
 * its example, without touching state. `example=NAME` picks a named example. Other preferences are
 * ignored, as RFC 7240 §2 asks. The forced bodies are serialised once, at start-up.
 */
import { contract, type OperationSpec, stringifyExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { clip, type MockError, mockError } from './errors.js';
import type { Bytes } from './responses.js';

export interface ForcedResponse {
  status: number;
  /** `undefined` for a response without a body (204). */
  body: Bytes | undefined;
  /** The `Preference-Applied` value (RFC 7240 §3). */
  applied: string;
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

export type PreferTable = (
  operation: OperationSpec,
  prefer: PreferRequest,
) => Result<ForcedResponse, MockError>;

/**
 * Prepares every documented response of every operation for forcing.
 *
 * @example compilePrefer()(contract.operation('cancelOrder'), { code: '409', example: undefined })
 */
export function compilePrefer(operations: readonly OperationSpec[] = contract.operations): PreferTable {
  // key: `${operationId} ${status}`, value: example name → body (first example first).
  const bodies = new Map<string, Map<string, Bytes | undefined>>();
  const encoder = new TextEncoder();
  for (const operation of operations) {
    for (const response of operation.responses.values()) {
      const examples = new Map<string, Bytes | undefined>();
      if (response.mediaType === null) examples.set('', undefined);
      for (const [name, value] of response.examples)
        examples.set(name, encoder.encode(stringifyExactJson(value)));
      bodies.set(`${operation.operationId} ${response.status}`, examples);
    }
  }
  return (operation, prefer) => {
    const documented = operation.statuses.join(', ');
    const examples = /^\d{3}$/.test(prefer.code)
      ? bodies.get(`${operation.operationId} ${prefer.code}`)
      : undefined;
    if (!examples) {
      return fail(
        mockError('invalidPrefer', {
          message: `Prefer: code=${clip(prefer.code, 32)} is not a documented response of ${operation.operationId}; use one of ${documented}.`,
        }),
      );
    }
    const names = [...examples.keys()];
    const name = prefer.example ?? names[0];
    if (name === undefined || !examples.has(name)) {
      const known = names.filter(Boolean);
      const message =
        known.length > 0
          ? `Prefer: example=${clip(prefer.example ?? '', 32)} is not an example of ${operation.operationId} ${prefer.code}; use one of ${known.join(', ')}.`
          : `${operation.operationId} ${prefer.code} has no example in the document to send.`;
      return fail(mockError('invalidPrefer', { message }));
    }
    const applied =
      prefer.example === undefined ? `code=${prefer.code}` : `code=${prefer.code}; example=${name}`;
    return ok({ status: Number(prefer.code), body: examples.get(name), applied });
  };
}
