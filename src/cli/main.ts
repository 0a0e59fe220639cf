/**
 * The `petstore` command line: one entry with a subcommand per tool (the mock, the conformance suite and
 * the validating proxy). It is the one place that knows every tool; the tools never import it. Each
 * subcommand is loaded only when asked for, so `petstore mock` never pays for the suite or the proxy.
 */
import type { Subcommand } from '../subcommand.js';

interface SubcommandEntry {
  summary: string;
  load: () => Promise<Subcommand>;
}

/** Every subcommand, one line each. */
export const SUBCOMMANDS: Record<string, SubcommandEntry> = {
  mock: {
    summary: 'Run the stateful mock server (docs/mock.md)',
    load: async () => (await import('../mock/cli.js')).runMockCommand,
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
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
  const lines = Object.entries(SUBCOMMANDS).map(
    ([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`,
  );
  return [
    'Usage: petstore <command> [options]',
    '',
    'Contract-first toolkit for the Pet Store Orders API v1.',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `petstore <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

const ignore = (): void => undefined;

/**
 * Runs the command line and returns the exit code: 0 on success, 2 for a usage error.
 *
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: string[]): Promise<number> {
  // A reader that closes early (`| head`, `| grep -q`) stops the printing, not the run: the reports are
  // still written and the exit code stays the verdict's (issue 25), instead of an uncaught EPIPE.
  process.stdout.off('error', ignore).on('error', ignore);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const entry = SUBCOMMANDS[name];
  if (!entry) {
    process.stderr.write(
      `petstore: unknown command "${name}". Known commands: ${Object.keys(SUBCOMMANDS).join(', ')}. Run \`petstore --help\` for usage.\n`,
    );
    return 2;
  }
  const run = await entry.load();
  return run(rest);
}
