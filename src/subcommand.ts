/**
 * The shape every `petstore` subcommand has, and how they stop on a signal. A leaf module: the tools
 * implement it and the dispatcher in `cli/` lists them, so neither side imports the other to share it.
 */

/** A subcommand: takes its own arguments, returns the process exit code. */
export type Subcommand = (argv: string[]) => Promise<number>;

/**
 * An AbortSignal that SIGINT or SIGTERM aborts, once, with the signal's name as reason; a second signal
 * gets node's default (the process ends at once), for a user who does not want to wait for the reports.
 */
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
