/** Runs `petstore conformance` in-process with captured streams, for the CLI's tests. */
import { type CommandIo, conformanceCommand } from '../cli.js';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** @example const { code, stderr } = await runCommand(['--help'], { PETSTORE_API_KEY: 'k' }) */
export async function runCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  tty = false,
): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    env,
    stdout: { write: (t: string) => (stdout += t), isTTY: tty },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const code = await conformanceCommand(argv, io);
  return { code, stdout, stderr };
}
