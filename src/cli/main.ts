/** The `petstore` command: the one place that knows every tool; each is imported only when asked for. */
import type { Subcommand } from '../subcommand.js';

export const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Subcommand> }> = {
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

const WIDTH = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
const USAGE = `Usage: petstore <command> [options]

Contract-first toolkit for the Pet Store Orders API v1.

Commands:
${Object.entries(SUBCOMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(WIDTH)}  ${summary}`)
  .join('\n')}

Run \`petstore <command> --help\` for the options of one command.
`;

const ignore = (): void => undefined;

/** Returns the exit code: `process.exitCode = await main(process.argv.slice(2))`. */
export async function main(argv: string[]): Promise<number> {
  // A reader that closes early (`| head`) stops the printing, not the run, nor its exit code (issue 25).
  process.stdout.off('error', ignore).on('error', ignore);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  const entry = SUBCOMMANDS[name];
  if (!entry) {
    process.stderr.write(
      `petstore: unknown command "${name}". Known commands: ${Object.keys(SUBCOMMANDS).join(', ')}. Run \`petstore --help\` for usage.\n`,
    );
    return 2;
  }
  return (await entry.load())(rest);
}
