/**
 * The shape every `petstore` subcommand has. A leaf module: the tools implement it and the dispatcher in
 * `cli/` lists them, so neither side imports the other to share it.
 */

/** A subcommand: takes its own arguments, returns the process exit code. */
export type Subcommand = (argv: string[]) => Promise<number>;
