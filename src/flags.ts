/** One option table per command, read by parseArgs, the help text and the checks (issue 23). */
import { parseArgs } from 'node:util';
import { fail, ok, type Result } from './result.js';

/** One flag: its value's placeholder (none for a switch), its help line and how its text is read. */
export interface Flag {
  arg?: string;
  multiple?: boolean;
  short?: string;
  help: string;
  /** Reads the text given; the error is the whole message, naming the flag (`--port must be …`). */
  read?: (raw: string, flag: string) => Result<unknown, string>;
}

export type FlagTable = Record<string, Flag>;

type One<F> = F extends { read: (...args: never[]) => Result<infer T, string> }
  ? T
  : F extends { arg: string }
    ? string
    : boolean;

/** What a table parses to: each flag's value, absent when not given. */
export type FlagValues<T extends FlagTable> = {
  [K in keyof T]?: T[K] extends { multiple: true } ? One<T[K]>[] : One<T[K]>;
};

/** `--delay -5` as `--delay=-5`, so the message names the negative number, not parseArgs' "ambiguous". */
function joinDashValues(table: FlagTable, argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const joins = arg.startsWith('--') && table[arg.slice(2)]?.arg && /^-(?!-|h$)/.test(argv[i + 1] ?? '');
    out.push(joins ? `${arg}=${argv[++i]}` : arg);
  }
  return out;
}

/** @example parseFlags({ port: { arg: 'PORT', help: 'port' } }, ['--port', '0']).value // { port: '0' } */
export function parseFlags<T extends FlagTable>(
  table: T,
  argv: readonly string[],
): Result<FlagValues<T>, string> {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinDashValues(table, argv),
      options: Object.fromEntries(
        Object.entries(table).map(([name, { arg, multiple = false, short }]) => {
          const type = arg ? ('string' as const) : ('boolean' as const);
          return [name, short ? { type, multiple, short } : { type, multiple }];
        }),
      ),
    }));
  } catch (error) {
    // node's messages add advice about positionals after the first sentence; the first one is the point.
    return fail((error as Error).message.split(/\.(\s|$)/)[0] ?? '');
  }
  const parsed: Record<string, unknown> = {};
  for (const [name, given] of Object.entries(values)) {
    const read = table[name]?.read;
    const items: unknown[] = [];
    for (const raw of [given ?? []].flat()) {
      const item = read && typeof raw === 'string' ? read(raw, `--${name}`) : ok(raw);
      if (!item.ok) return item;
      items.push(item.value);
    }
    parsed[name] = Array.isArray(given) ? items : items[0];
  }
  return ok(parsed as FlagValues<T>);
}

const HELP_WIDTH = 104;

/** The table's flags as help lines: each flag, then its help wrapped in a column of its own. */
export function flagHelp(table: FlagTable): string {
  const heads = Object.entries(table).map(
    ([name, flag]) => `  ${flag.short ? `-${flag.short}, ` : ''}--${name}${flag.arg ? ` ${flag.arg}` : ''}`,
  );
  const column = Math.min(Math.max(...heads.map((head) => head.length)), 24) + 2;
  return Object.values(table)
    .map((flag, i) => {
      const lines = [heads[i] as string];
      for (const word of flag.help.split(' ')) {
        const line = lines.pop() as string;
        if (line.length < column) lines.push(`${line.padEnd(column)}${word}`);
        else if (line.length + 1 + word.length <= HELP_WIDTH) lines.push(`${line} ${word}`);
        else lines.push(line, `${' '.repeat(column)}${word}`);
      }
      return lines.join('\n');
    })
    .join('\n');
}

export function wholeNumber(min: number, max: number) {
  return (raw: string, flag: string): Result<number, string> =>
    /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
      ? ok(Number(raw))
      : fail(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
}

export function oneOf<const T extends string>(names: readonly T[]) {
  const list = names.length === 2 ? names.join(' or ') : names.join(', ');
  return (raw: string, flag: string): Result<T, string> =>
    (names as readonly string[]).includes(raw)
      ? ok(raw as T)
      : fail(`${flag} ${JSON.stringify(raw)} is unknown; use ${list}`);
}

export function notBlank(example: string) {
  return (raw: string, flag: string): Result<string, string> =>
    raw.trim() === '' ? fail(`${flag} must not be empty; ${example}`) : ok(raw);
}

/** `--port` and `--host` of a command that listens, with its own help lines. */
export function listenFlags(portHelp: string, hostHelp: string) {
  return {
    port: { arg: 'PORT', help: portHelp, read: wholeNumber(0, 65535) },
    host: { arg: 'HOST', help: hostHelp, read: notBlank('use 127.0.0.1 or 0.0.0.0') },
  };
}

/** Why a command cannot listen, with the flag that fixes it. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use. Stop the other server or pick another port with --port (0 picks a free one).`;
    case 'EACCES':
      return `no permission to listen on port ${port}. Pick a port above 1023 with --port.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on host "${host}": it is not an address of this machine. Use --host 127.0.0.1 or --host 0.0.0.0.`;
    default:
      return `cannot listen on ${host}:${port} (${error.code ?? error.message}). Try another --port or --host.`;
  }
}
