import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../contract/package-root.js';
import { SUBCOMMANDS } from './main.js';

const BIN = join(packageRoot(), 'bin', 'petstore.js');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs the installed command as a user would and returns what it printed and its exit code. */
async function petstore(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      timeout: 10_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('petstore command', () => {
  it('prints usage for --help and exits 0', async () => {
    const { code, stdout, stderr } = await petstore('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: petstore <command> \[options\]/);
    expect(stderr).toBe('');
  });

  it.each(Object.keys(SUBCOMMANDS))('lists the %s command with its summary in --help', async (name) => {
    const { stdout } = await petstore('--help');
    const summary = SUBCOMMANDS[name]?.summary ?? '';
    expect(stdout).toMatch(new RegExp(`^  ${name} +${escapeRegExp(summary)}$`, 'm'));
  });

  it('offers the mock and the conformance suite', () => {
    expect(Object.keys(SUBCOMMANDS)).toEqual(expect.arrayContaining(['mock', 'conformance']));
  });

  it('prints usage and exits 2 when no command is given', async () => {
    const { code, stdout } = await petstore();
    expect(code).toBe(2);
    expect(stdout).toContain('Usage: petstore');
  });

  it('names an unknown command, says how to get help, and exits 2', async () => {
    const { code, stdout, stderr } = await petstore('frobnicate');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `petstore: unknown command "frobnicate". Known commands: ${Object.keys(SUBCOMMANDS).join(', ')}. Run \`petstore --help\` for usage.\n`,
    );
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
  });

  it('loads the mock command without Ajv: only --spec compiles a document (Ajv is 80 ms of every start, issue 23)', async () => {
    const cli = join(packageRoot(), 'dist', 'src', 'mock', 'cli.js');
    const script = `import { createRequire } from 'node:module';
      await import(${JSON.stringify(cli)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stdout.write(JSON.stringify(loaded.filter((file) => /node_modules[\\/]ajv/.test(file))));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
