/**
 * The `petstore` command line: one entry with a subcommand per tool. Each subcommand lives beside its
 * tool and is loaded only when asked for, so `petstore mock` never pays for the conformance suite.
 */

/** A subcommand: takes its own arguments, returns the process exit code. */
export type Subcommand = (argv: string[]) => Promise<number>;

interface SubcommandEntry {
  summary: string;
  load: () => Promise<Subcommand>;
}

export const SUBCOMMANDS: Record<string, SubcommandEntry> = {
  mock: {
    summary: 'Run the stateful mock server (docs/mock.md)',
    load: async () => (await import('./mock/cli.js')).runMockCommand,
  },
  conformance: {
    summary: 'Check that a server keeps the API contract (docs/conformance.md)',
    load: async () => (await import('../conformance/cli.js')).runConformanceCommand,
  },
  proxy: {
    summary: 'Check real traffic against the contract, between a client and a server (docs/proxy.md)',
    load: async () => (await import('../proxy/cli.js')).runProxyCommand,
  },
};

export function usage(): string {
  const width = Math.max(0, ...Object.keys(SUBCOMMANDS).map((name) => name.length));
  const lines = Object.entries(SUBCOMMANDS).map(
    ([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`,
  );
  return [
    'Usage: petstore <command> [options]',
    '',
    'Contract-first toolkit for the Pet Store Orders API v1.',
    '',
    'Commands:',
    ...(lines.length > 0 ? lines : ['  (none yet)']),
    '',
    'Run `petstore <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

/** Runs the command line and returns the exit code: 0 on success, 2 for a usage error. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const entry = SUBCOMMANDS[name];
  if (!entry) {
    const known = Object.keys(SUBCOMMANDS);
    process.stderr.write(
      `petstore: unknown command "${name}". ${known.length > 0 ? `Known commands: ${known.join(', ')}. ` : ''}Run \`petstore --help\` for usage.\n`,
    );
    return 2;
  }
  const run = await entry.load();
  return run(rest);
}
