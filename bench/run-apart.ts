/** How the bench runs a measurement in a fresh process of its own, away from the bench's heap and timers. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `bench/<script>` with `args` in a new node process (TypeScript through tsx) and resolves with the
 * JSON it prints on stdout; its stderr (progress lines) goes to ours. Rejects if it exits with a failure.
 *
 * @example const figures = await runApart<MswFigures>(root, 'msw.ts', [fixtures, key, '3', '3'])
 */
export function runApart<T>(root: string, script: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', script), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/${script} exited with ${code}`));
      else resolve(JSON.parse(out) as T);
    });
  });
}
