/** Simulated faults (D18): opt-in, per session, marked as simulated; taken only after the key check. */
import type { ExactJson } from '../contract/index.js';
import { isObject } from '../contract/refs.js';
import { fail, ok, type Result } from '../result.js';
import type { MockError, MockErrorSpec } from './errors.js';

/** The longest wait a fault or the delay may ask for (as `--delay`): longer only hangs every client. */
export const MAX_DELAY_MS = 30_000;
/** Rules a session keeps at once: a test needs a few, and the cap bounds a session's memory. */
export const MAX_FAULT_RULES = 50;
const MAX_TIMES = 1_000_000;

/** What a fault does to a request (D18); `operation` null for every operation. */
export interface FaultSpec {
  operation: string | null;
  status?: number;
  drop?: true;
  delayMs: number; // on top of the global delay
  times: number;
  message?: string;
}

/** A planned fault as `GET /__mock/faults` lists it. */
export interface PlannedFault extends Omit<FaultSpec, 'times'> {
  readonly id: number;
  remaining: number;
}

/** `x-petstore-faults`: the fault's Error code, its marker header, the statuses `Prefer` may simulate. */
export type FaultSettings = ReturnType<typeof readFaultSettings>;

/** Reads `x-petstore-faults`: `readFaultSettings(defaultContract().document).code` is `'simulated_fault'`. */
export function readFaultSettings(document: Readonly<Record<string, unknown>>) {
  const { code, header, preferStatus } = (document['x-petstore-faults'] ?? {}) as Record<string, unknown>;
  const { minimum, maximum } = (preferStatus ?? {}) as Record<string, unknown>;
  const named = typeof code === 'string' && code !== '' && typeof header === 'string';
  if (!named || !/^[A-Za-z0-9-]+$/.test(header) || !Number.isInteger(minimum) || !Number.isInteger(maximum)) {
    throw new Error('x-petstore-faults needs code, header and preferStatus {minimum, maximum}');
  }
  return {
    code,
    header: header.toLowerCase(),
    preferStatus: { minimum, maximum } as { minimum: number; maximum: number },
  };
}

/** The Error of a simulated fault the document does not describe, in words an app may show (issue 24). */
export function simulatedFault(status: number, settings: FaultSettings, message?: string): MockError {
  const spec: MockErrorSpec = { status, code: settings.code, message: 'Simulated fault.' };
  return { spec, message: message ?? `Simulated fault: the mock answered ${status} on purpose.` };
}

export class FaultPlan {
  readonly #rules: PlannedFault[] = [];
  #nextId = 1;

  /** Adds a rule after the others; `undefined` when the session already holds {@link MAX_FAULT_RULES}. */
  add(spec: FaultSpec): PlannedFault | undefined {
    if (this.#rules.length >= MAX_FAULT_RULES) return undefined;
    const { times, message, ...rest } = spec; // keys in the order `GET /__mock/faults` shows them
    const rule: PlannedFault = { id: this.#nextId++, ...rest, remaining: times, ...(message && { message }) };
    this.#rules.push(rule);
    return rule;
  }

  /** The first rule that applies to `operationId`, counted as used (and removed once used up). */
  take(operationId: string): PlannedFault | undefined {
    const index = this.#rules.findIndex((rule) => rule.operation === null || rule.operation === operationId);
    const rule = this.#rules[index];
    if (rule === undefined) return undefined;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.#rules.splice(index, 1);
    return { ...rule };
  }

  list(): PlannedFault[] {
    return this.#rules.map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.#rules.length = 0;
  }
}

const FIELDS = new Set(['operation', 'status', 'drop', 'delayMs', 'times', 'message']);
const MAX_FAULT_MESSAGE = 200; // shown on a screen: a sentence, not a payload
const FAULT_EXAMPLE = '{"operation":"listOrders","status":503,"times":2}';

function wholeNumber(value: ExactJson | undefined, min: number, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  const number = typeof value === 'bigint' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max
    ? number
    : null;
}

/** Reads the body of `POST /__mock/faults`; the error is a message that says what to fix. */
export function parseFaultSpec(body: ExactJson, operations: readonly string[]): Result<FaultSpec, string> {
  if (!isObject(body)) return fail(`The body must be a JSON object such as ${FAULT_EXAMPLE}.`);
  const unknown = Object.keys(body).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) {
    return fail(`Unknown field(s) ${unknown.join(', ').slice(0, 80)}; allowed: ${[...FIELDS].join(', ')}.`);
  }
  const { operation, drop, message } = body;
  if (operation != null && (typeof operation !== 'string' || !operations.includes(operation))) {
    return fail(`"operation" must be one of ${operations.join(', ')}, or left out for every operation.`);
  }
  const status = wholeNumber(body.status, 400, 599);
  if (status === null) return fail('"status" must be a whole number from 400 to 599.');
  const delayMs = wholeNumber(body.delayMs, 0, MAX_DELAY_MS);
  if (delayMs === null) return fail(`"delayMs" must be a whole number from 0 to ${MAX_DELAY_MS}.`);
  const times = wholeNumber(body.times, 1, MAX_TIMES);
  if (times === null) return fail(`"times" must be a whole number from 1 to ${MAX_TIMES}.`);
  if (drop !== undefined && drop !== true) return fail('"drop" must be true, or left out.');
  if (drop && status !== undefined) {
    return fail('A fault either answers a "status" or drops the connection ("drop": true), not both.');
  }
  const badMessage = typeof message !== 'string' || !message || message.length > MAX_FAULT_MESSAGE;
  if (message !== undefined && (badMessage || status === undefined)) {
    return fail(`"message" goes with a "status": text of 1 to ${MAX_FAULT_MESSAGE} characters.`);
  }
  if (!drop && status === undefined && delayMs === undefined) {
    return fail(
      `Say what the fault does: "status", "drop": true or "delayMs"; for example ${FAULT_EXAMPLE}.`,
    );
  }
  // Only `operation` takes null (what GET /__mock/faults shows); a null delay or count is refused (docs/mock.md).
  const fault = { operation: operation ?? null, status, drop, delayMs: delayMs ?? 0, times: times ?? 1 };
  return ok({ ...fault, message } as FaultSpec);
}

/** Reads the body of `PUT /__mock/delay`: `parseDelay({ delayMs: 250 })` is `ok(250)`. */
export function parseDelay(body: ExactJson): Result<number, string> {
  const message = `The body must be {"delayMs": N} with N a whole number from 0 to ${MAX_DELAY_MS}.`;
  if (!isObject(body)) return fail(message);
  const delayMs = wholeNumber(body.delayMs, 0, MAX_DELAY_MS);
  return Object.keys(body).length === 1 && typeof delayMs === 'number' ? ok(delayMs) : fail(message);
}
