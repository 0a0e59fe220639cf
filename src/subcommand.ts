/** What every `petstore` subcommand is, and how it stops on a signal; a leaf, so the CLI imports no tool. */

/** A subcommand: takes its own arguments, returns the process exit code. */
export type Subcommand = (argv: string[]) => Promise<number>;

/** Aborted by the first SIGINT or SIGTERM, with its name; a second one ends the process at once (node's default). */
export function stopSignal(): AbortSignal {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
    controller.abort(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return controller.signal;
}
