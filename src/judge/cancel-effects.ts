/**
 * What a cancel really did, judged from the order list before and after it (§3, D2, D16): the order a
 * successful cancel named may leave the list (or, on a server that keeps cancelled orders listed, stay);
 * every other order must still be listed and unchanged. A rounding id parser, a collateral cancel and a
 * cancel of the wrong order all show here as a change to an order no successful cancel named. The
 * functions are pure, and judge one step of a client that knows what it sent just before and just after.
 * The rules no single step shows (a cancelled order that comes back later, a success after a refusal, a
 * key refused on one operation only) are the observer's (`observer.ts`), fed with every exchange; it
 * reads a list with the same {@link listedOrders}.
 */
import { type ExactJson, parseExactJson, stringifyExactJson } from '../contract/index.js';

/** The orders of one list, by id (decimal text), each as its exact JSON text. */
export type ListSnapshot = ReadonlyMap<string, string>;

/**
 * The snapshot of a list body, or `null` when it is not a JSON array of objects.
 *
 * @example snapshotOf('[{"id":9007199254740993}]')?.has('9007199254740993') // true
 */
export function snapshotOf(text: string): ListSnapshot | null {
  const parsed = parseExactJson(text);
  return parsed.ok ? snapshotOfValue(parsed.value) : null;
}

/** {@link snapshotOf} for a body already parsed losslessly. */
export function snapshotOfValue(value: ExactJson): ListSnapshot | null {
  const listed = listedOrders(value);
  if (listed === null) return null;
  const orders = new Map<string, string>();
  for (const [id, order] of listed) orders.set(id, stringifyExactJson(order));
  return orders;
}

/** One order of a list body, as parsed losslessly. */
export type ListedOrder = { [key: string]: ExactJson };

/**
 * The orders of a list body by id (the decimal text of the exact id), or `null` when the body is not a
 * JSON array. Items that are not objects with a numeric `id` are left out: judging them is the schema's
 * job, not the state rules'.
 *
 * @example listedOrders([{ id: 9007199254740993n }])?.get('9007199254740993') // { id: 9007199254740993n }
 */
export function listedOrders(value: ExactJson): Map<string, ListedOrder> | null {
  if (!Array.isArray(value)) return null;
  const orders = new Map<string, ListedOrder>();
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const id = item.id;
    if (typeof id !== 'number' && typeof id !== 'bigint') continue;
    orders.set(String(id), item);
  }
  return orders;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The int64 a malformed id names in another common notation of the same integer (D9): leading zeros, a
 * leading `+`, a zero fraction, an exponent, hex, surrounding spaces. PostgreSQL's cast and the parsers of
 * Java, Go, Python and .NET read ids so, which is a warning; `null` when the spelling names another number
 * or none (`7abc`, `7.5`, `' '`), which a server must not act on.
 *
 * @example sameInteger('02') // 2n; sameInteger('0x10') // 16n; sameInteger('7.5') // null
 */
export function sameInteger(raw: string): bigint | null {
  const text = raw.trim();
  let value: bigint | null = null;
  const hex = /^([+-]?)0x([0-9a-f]+)$/i.exec(text);
  const decimal = /^([+-]?)([0-9]+)(?:\.([0-9]*))?(?:e\+?([0-9]{1,3}))?$/i.exec(text);
  if (hex?.[2] !== undefined) value = (hex[1] === '-' ? -1n : 1n) * BigInt(`0x${hex[2]}`);
  else if (decimal?.[2] !== undefined) {
    const fraction = decimal[3] ?? '';
    const scaled = BigInt(decimal[2] + fraction) * 10n ** BigInt(decimal[4] ?? '0');
    const unit = 10n ** BigInt(fraction.length);
    if (scaled % unit === 0n) value = (decimal[1] === '-' ? -1n : 1n) * (scaled / unit);
  }
  return value !== null && value >= INT64_MIN && value <= INT64_MAX ? value : null;
}

/** One cancel of a step: the order id it named (canonical int64 text, else `null`) and its answer. */
export interface SentCancel {
  /** The path segment as sent: `42`, `1.5`. */
  raw: string;
  /** The order it names when `raw` is a canonical int64, else `null`. */
  id: string | null;
  /** The HTTP status, `null` when no answer came. */
  status: number | null;
}

/** How the server treats a cancelled order in the list (D16), learned from what it did. */
export type CancelledReading = 'drops' | 'keeps';

export interface EffectProblem {
  /** The order that changed, or that should have and did not. */
  orderId: string;
  message: string;
  expected: string;
}

export interface EffectVerdict {
  problems: EffectProblem[];
  /** The reading this step showed, when it showed one (a successful cancel of a listed order). */
  learned: CancelledReading | null;
  /** Observations that are not judged: orders that appeared, which reading was seen. */
  notes: string[];
}

function describeCancels(cancels: readonly SentCancel[]): string {
  return cancels
    .map((c) => `DELETE /store/orders/${c.raw} answered ${c.status === null ? 'nothing' : c.status}`)
    .join(' and ');
}

/**
 * Judges one step (one cancel, or simultaneous cancels) by the list before and after it. `reading` is
 * what earlier steps showed: on a server known to drop cancelled orders, an order a successful cancel
 * named must not stay listed unchanged.
 *
 * @example judgeCancelEffect(before, after, [{ raw: '3', id: '3', status: 204 }], null)
 */
export function judgeCancelEffect(
  before: ListSnapshot,
  after: ListSnapshot,
  cancels: readonly SentCancel[],
  reading: CancelledReading | null,
): EffectVerdict {
  // A cancel without an answer (a time-out) may have gone through: its order may change too.
  const mayHaveCancelled = new Set(
    cancels
      .filter((c) => c.id !== null && (c.status === null || (c.status >= 200 && c.status <= 299)))
      .map((c) => c.id as string),
  );
  const sent = describeCancels(cancels);
  const problems: EffectProblem[] = [];
  const notes: string[] = [];
  let learned: CancelledReading | null = null;
  for (const [id, order] of before) {
    const now = after.get(id);
    if (mayHaveCancelled.has(id)) {
      const answered = cancels.some((c) => c.id === id && c.status !== null);
      if (now === undefined) learned = answered ? 'drops' : learned;
      else if (reading === 'drops' && now === order && answered) {
        problems.push({
          orderId: id,
          message: `order ${id} is still listed unchanged after ${sent}, although this server drops cancelled orders from the list (D2, D16)`,
          expected: `order ${id} no longer listed`,
        });
      } else if (reading === null && answered) learned ??= 'keeps';
      continue;
    }
    if (now === undefined) {
      problems.push({
        orderId: id,
        message: `order ${id} left the list after ${sent}: no successful cancel named it`,
        expected: `order ${id} still listed and unchanged (§3, D16)`,
      });
    } else if (now !== order) {
      problems.push({
        orderId: id,
        message: `order ${id} changed after ${sent}: no successful cancel named it (was ${order}, now ${now})`,
        expected: `order ${id} still listed and unchanged (§3, D16)`,
      });
    }
  }
  const appeared = [...after.keys()].filter((id) => !before.has(id));
  if (appeared.length > 0) notes.push(`order(s) ${appeared.join(', ')} appeared in the list during the run`);
  return { problems, learned, notes };
}

/** The sentence a report shows for a learned reading. */
export function describeReading(reading: CancelledReading): string {
  return reading === 'drops'
    ? 'this server drops a cancelled order from the list (D2)'
    : 'this server keeps a cancelled order in the list (allowed, D16)';
}
