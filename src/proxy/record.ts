/** `--record FILE` (issue 24): the listed orders as fixtures; only answers, never the key; exact ids (D8). */
import { renameSync, writeFileSync } from 'node:fs';
import { type Contract, type ExactJson, parseExactJson, stringifyExactJson } from '../contract/index.js';
import type { Observer, OrderList, SeenExchange } from '../judge/observer.js';
import { MAX_FIXTURE_BYTES } from '../mock/fixture-files.js';
import type { FixtureInt64, FixtureOrder } from '../mock/fixtures.js';

const WRITE_DELAY_MS = 500;

export interface RecorderOptions {
  file: string;
  /** Never has credentials: parseUpstream refuses them. */
  upstream: string;
  contract: Contract;
  /** One-line notes: the cap reached, a write that failed. */
  note: (line: string) => void;
  /** Default the fixture loader's bound. */
  maxBytes?: number;
}

/** Writes after changes and on close, through a renamed temp file; write at once to find a bad path at start. */
export class Recorder {
  /** By id, in the order first seen, which a replayed list keeps. */
  private readonly orders = new Map<string, { order: FixtureOrder; line: string }>();
  /** The observer keeps a list read again unchanged as the same one: it costs no parse here. */
  private readonly read = new WeakSet<OrderList>();
  private bytes = 0;
  private full = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: RecorderOptions) {}

  /** Takes in a list answer or a cancel's 204 or 409, with its scope's lists once the observer has judged it. */
  see(seen: SeenExchange, lists: ReturnType<Observer['compared']>): void {
    const { method, status, text } = seen;
    const path = seen.path.split('?')[0] ?? '';
    // A list the observer has just taken in is this exchange's: a filtered one it does not take (`?limit=`).
    if (text !== null && lists.after !== null && !this.read.has(lists.after)) {
      this.read.add(lists.after);
      this.list(text, lists.before);
    } else if (method === 'DELETE' && (status === 204 || status === 409)) {
      const id = /^\/store\/orders\/(0|-?[1-9][0-9]{0,18})$/.exec(path)?.[1];
      const known = id === undefined ? undefined : this.orders.get(id);
      // No state moves from cancelled to shipped (§3): a 409 after a 204 is a repeat's refusal (D2), a double click's too.
      if (known && !(status === 409 && known.order.status === 'cancelled'))
        this.put({ ...known.order, status: status === 204 ? 'cancelled' : 'shipped' });
    }
  }

  private list(text: string, before: OrderList | null): void {
    const body = parseExactJson(text);
    if (!body.ok || !Array.isArray(body.value)) return;
    const listed = new Set<string>();
    for (const item of body.value) {
      const order = fixtureOrder(item, this.options.contract);
      if (order === null) continue;
      listed.add(String(order.id));
      this.put(order);
    }
    // Gone from its scope's list: cancelled (D2).
    for (const id of before?.keys() ?? []) {
      const known = this.orders.get(id);
      if (!listed.has(id) && known) this.put({ ...known.order, status: 'cancelled' });
    }
  }

  private put(order: FixtureOrder): void {
    const id = String(order.id);
    const line = `  - ${stringifyExactJson(order)}\n`;
    const before = this.orders.get(id);
    if (before?.line === line) return;
    const grown = this.bytes - (before?.line.length ?? 0) + line.length;
    const maxBytes = this.options.maxBytes ?? MAX_FIXTURE_BYTES;
    if (grown > maxBytes - HEADER_ROOM) {
      if (!this.full) {
        this.options.note(
          `petstore proxy: --record ${this.options.file} reached ${maxBytes / 2 ** 20} MiB (the fixture loader's bound); orders seen from now on are not recorded`,
        );
      }
      this.full = true;
      return;
    }
    this.orders.set(id, { order, line });
    this.bytes = grown;
    this.timer ??= setTimeout(() => this.close(), WRITE_DELAY_MS).unref();
  }

  /** Writes the file as it is now; a failure is a note, and the next change tries again. */
  close(): void {
    const problem = this.write();
    if (problem !== null) this.options.note(`petstore proxy: ${problem}`);
  }

  /** Writes the file now; returns why it could not, or `null`. */
  write(): string | null {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const description = `recorded by petstore proxy from ${this.options.upstream} at ${new Date().toISOString()}`;
    const text = [
      '# Fixtures recorded by `petstore proxy --record` (docs/proxy.md, "Record and replay").',
      '# Replay them with: petstore mock --fixtures THIS_FILE',
      `description: ${JSON.stringify(description.slice(0, 500))}`,
      this.orders.size === 0 ? 'orders: []' : 'orders:',
      ...[...this.orders.values()].map((entry) => entry.line.trimEnd()),
      '',
    ].join('\n');
    const temporary = `${this.options.file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, text);
      renameSync(temporary, this.options.file);
      return null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return `cannot write --record ${this.options.file} (${code}); check the path`;
    }
  }
}

/** Bytes kept free for the file's header lines. */
const HEADER_ROOM = 1024;

const INT = (value: ExactJson | undefined): value is number | bigint =>
  typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));

/** D8: an id past 2^53 as decimal text, which a plain JSON or YAML import keeps exact. */
const exact = (id: number | bigint): FixtureInt64 => (typeof id === 'bigint' ? `${id}` : id);

/** A listed order as a fixture entry, `null` when the Order schema refuses it. */
function fixtureOrder(item: ExactJson, contract: Contract): FixtureOrder | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item) || !INT(item.id)) return null;
  if (!contract.validateSchema('Order', item).ok) return null;
  const { id, petId, quantity, shipDate, complete } = item;
  return {
    id: exact(id),
    ...(INT(petId) ? { petId: exact(petId) } : {}),
    ...(typeof quantity === 'number' && Number.isSafeInteger(quantity) ? { quantity } : {}),
    ...(typeof shipDate === 'string' ? { shipDate } : {}),
    status: complete === true ? 'shipped' : 'pending',
  };
}
