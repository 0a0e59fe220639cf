/**
 * The option tables in-process: the shared parser, each command's usage errors (one line, exit 2), its help,
 * and its docs page, which lists every flag of its table. The spawned runs keep one test per exit path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { HELP } from '../conformance/cli.js';
import { CONFORMANCE_FLAGS } from '../conformance/options.js';
import { runCommand } from '../conformance/test-support/cli-harness.js';
import { packageRoot } from '../contract/package-root.js';
import { type FlagTable, flagHelp, parseFlags, wholeNumber } from '../flags.js';
import { MOCK_FLAGS, MOCK_USAGE, parseMockArgs } from '../mock/cli.js';
import { PROXY_FLAGS, PROXY_USAGE } from '../proxy/cli.js';

describe('parseFlags', () => {
  const table = {
    delay: { arg: 'MS', help: 'a delay', read: wholeNumber(0, 10) },
    name: { arg: 'NAME', multiple: true, help: 'a name' },
    quiet: { help: 'a switch' },
    help: { short: 'h', help: 'show this help' },
  } satisfies FlagTable;

  it.each([
    {
      name: 'a negative number after a space',
      argv: ['--delay', '-5'],
      want: /^--delay must be a whole number from 0 to 10, got "-5"$/,
    },
    {
      name: 'a flag where a value belongs',
      argv: ['--name', '--quiet'],
      want: /^Option '--name' argument is ambiguous$/,
    },
    {
      name: 'an unknown flag, in its first sentence only',
      argv: ['--bogus'],
      want: /^Unknown option '--bogus'$/,
    },
    { name: 'a positional argument', argv: ['x'], want: /^Unexpected argument 'x'$/ },
  ])('refuses $name in one line', ({ argv, want }) => {
    const parsed = parseFlags(table, argv);
    expect(parsed.ok ? parsed.value : parsed.error).toMatch(want);
  });

  it('reads values, repeats and switches, and takes a value that starts with a dash after a space', () => {
    expect(parseFlags(table, ['--delay', '3', '--name', '-a', '--name=b', '--quiet', '-h'])).toEqual({
      ok: true,
      value: { delay: 3, name: ['-a', 'b'], quiet: true, help: true },
    });
  });

  it('prints each flag once, its help wrapped within 104 columns', () => {
    const help = flagHelp({ ...table, long: { arg: 'X', help: 'word '.repeat(60).trim() } });
    expect(help).toMatch(/^ {2}--delay MS +a delay$/m);
    expect(help).toMatch(/^ {2}-h, --help +show this help$/m);
    expect(help.split('\n').every((line) => line.length <= 104)).toBe(true);
    expect(help.match(/word/g)).toHaveLength(60);
  });
});

describe('every flag is in its help and on its docs page', () => {
  const docs = (page: string) => readFileSync(join(packageRoot(), 'docs', page), 'utf8');
  it.each([
    { command: 'mock', table: MOCK_FLAGS as FlagTable, help: MOCK_USAGE, page: 'mock.md' },
    { command: 'conformance', table: CONFORMANCE_FLAGS as FlagTable, help: HELP, page: 'conformance.md' },
    { command: 'proxy', table: PROXY_FLAGS as FlagTable, help: PROXY_USAGE, page: 'proxy.md' },
  ])('petstore $command', ({ table, help, page }) => {
    const text = docs(page).replaceAll('\\|', '|');
    for (const [name, flag] of Object.entries(table)) {
      const usage = `--${name}${flag.arg ? ` ${flag.arg}` : ''}`;
      expect(help).toContain(usage);
      expect(text, page).toContain(`\`${usage}\``);
    }
  });
});

describe('petstore mock refuses bad flags in one line', () => {
  it.each([
    {
      name: 'a port that is not a number',
      argv: ['--port', 'abc'],
      want: /^--port must be a whole number from 0 to 65535, got "abc"$/,
    },
    {
      name: 'a negative port',
      argv: ['--port', '-1'],
      want: /^--port must be a whole number from 0 to 65535, got "-1"$/,
    },
    {
      name: 'a negative delay after =',
      argv: ['--delay=-5'],
      want: /^--delay must be a whole number from 0 to 30000, got "-5"$/,
    },
    {
      name: 'a --cors-origin that is not an origin',
      argv: ['--cors-origin', 'app.test'],
      want: /^--cors-origin: "app\.test" is not an origin; give scheme, host and port only/,
    },
    {
      name: 'a key that cannot be sent',
      argv: ['--api-key', 'two words'],
      want: /^--api-key "two words" cannot be sent as a bearer token/,
    },
    {
      name: 'an empty host',
      argv: ['--host', ' '],
      want: /^--host must not be empty; use 127\.0\.0\.1 or 0\.0\.0\.0$/,
    },
  ])('$name', async ({ argv, want }) => {
    const parsed = await parseMockArgs(argv, {});
    expect(parsed.ok ? parsed.value : parsed.error).toMatch(want);
  });

  it('takes a key that starts with a dash after a space', async () => {
    const parsed = await parseMockArgs(['--api-key', '-abc', '--quiet'], {});
    expect(parsed.ok && [parsed.value.apiKeys, parsed.value.quiet]).toEqual([['-abc'], true]);
  });

  it.each([
    {
      name: '--api-key wins over the environment',
      argv: ['--api-key', 'a', '--api-key', 'b'],
      env: { PETSTORE_API_KEY: 'e' },
      want: ['a', 'b'],
      source: '--api-key',
    },
    {
      name: 'the environment comes next',
      argv: [],
      env: { PETSTORE_API_KEY: 'e' },
      want: ['e'],
      source: 'PETSTORE_API_KEY',
    },
    { name: 'then the fixture file (decided later)', argv: [], env: {}, want: [], source: undefined },
    {
      name: 'an empty environment value counts as unset',
      argv: [],
      env: { PETSTORE_API_KEY: ' ' },
      want: [],
      source: undefined,
    },
  ])('key precedence: $name', async ({ argv, env, want, source }) => {
    const parsed = await parseMockArgs(argv, env);
    expect(parsed.ok && parsed.value.apiKeys).toEqual(want);
    expect(parsed.ok && parsed.value.keySource).toBe(source);
  });
});

describe('petstore conformance refuses bad options in one line, exit 2, before any request', () => {
  const run = (argv: string[], env: Record<string, string> = { PETSTORE_API_KEY: TARGET_KEY }) =>
    runCommand(argv, env);

  it.each([
    ['no --base-url', [], /--base-url is required/],
    [
      'a base URL that is not one',
      ['--base-url', 'localhost:4010'],
      /must be an http or https address|is not a URL/,
    ],
    ['an unknown flag', ['--base-url', 'http://h/v1', '--bogus'], /bogus/],
    [
      'an unknown reporter',
      ['--base-url', 'http://h/v1', '--reporter', 'tap'],
      /--reporter "tap" is unknown/,
    ],
    [
      'an unknown level',
      ['--base-url', 'http://h/v1', '--fail-on', 'error'],
      /--fail-on "error" is unknown; use fail or warn/,
    ],
    ['an unknown check', ['--base-url', 'http://h/v1', '--only', 'nope'], /--only nope names no check/],
    [
      'a malformed order id',
      ['--base-url', 'http://h/v1', '--pending-order', '1.5'],
      /not an int64 order id/,
    ],
    [
      'an order id with a leading zero',
      ['--base-url', 'http://h/v1', '--pending-order', '02'],
      /--pending-order "02" is not an int64 order id/,
    ],
    [
      'a shipped order id with a plus sign',
      ['--base-url', 'http://h/v1', '--shipped-order', '+2'],
      /--shipped-order "\+2" is not an int64 order id/,
    ],
    [
      'a base URL that is not http',
      ['--base-url', 'ftp://h/v1'],
      /--base-url must be an http or https address/,
    ],
    ['an unparseable base URL', ['--base-url', 'http//h/v1'], /--base-url "http\/\/h\/v1" is not a URL/],
    [
      'a pending order given twice',
      ['--base-url', 'http://h/v1', '--pending-order', '1', '--pending-order', '1', '--destructive'],
      /--pending-order 1 is given more than once/,
    ],
    [
      'an order given as pending and as shipped',
      ['--base-url', 'http://h/v1', '--pending-order', '1', '--shipped-order', '1'],
      /--shipped-order 1 is also given as a pending order/,
    ],
    [
      'a bad timeout',
      ['--base-url', 'http://h/v1', '--timeout', '0'],
      /--timeout must be a positive whole number/,
    ],
    [
      'a timeout longer than Node can wait',
      ['--base-url', 'http://h/v1', '--timeout', '2147483648'],
      /--timeout 2147483648 is longer than the longest timer Node can set \(2147483647 ms/,
    ],
    ['a base URL with a query', ['--base-url', 'http://h/v1?x=1'], /--base-url has a query/],
    ['a base URL with an empty query', ['--base-url', 'http://h/v1?'], /--base-url has a query/],
    ['a base URL with a fragment', ['--base-url', 'http://h/v1#top'], /--base-url has a fragment/],
    [
      'a retry budget that is not a duration',
      ['--base-url', 'http://h/v1', '--retry-budget', 'soon'],
      /--retry-budget "soon" is not a duration; give e\.g\. 30s, 500ms, 2m or 0/,
    ],
    [
      'a fuzz budget that is neither',
      ['--base-url', 'http://h/v1', '--fuzz', '-1'],
      /--fuzz "-1" is neither a number of requests nor a time/,
    ],
    [
      'a fuzz count past the cap',
      ['--base-url', 'http://h/v1', '--fuzz', '100001'],
      /--fuzz must be a whole number of requests from 0 to 100000/,
    ],
    [
      'a seed out of range',
      ['--base-url', 'http://h/v1', '--seed', '2147483648'],
      /--seed must be random or a whole number from 0 to 2147483647/,
    ],
    [
      'a rate that is not positive',
      ['--base-url', 'http://h/v1', '--rate-limit', '0'],
      /--rate-limit must be a positive number of requests per second/,
    ],
    [
      '--shared with --sole-client',
      ['--base-url', 'http://h/v1', '--shared', '--sole-client'],
      /--shared and --sole-client contradict each other/,
    ],
  ] as const)('exits 2 on %s, with one line', async (_label, argv, message) => {
    const { code, stderr, stdout } = await run([...argv]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^petstore conformance: .+\. Run `petstore conformance --help` for usage\.\n$/);
    expect(stdout).toBe('');
  });

  it.each([
    ['user and password', 'http://qa-user:s3cr3t-pass@h/v1'],
    ['a user alone', 'http://qa-user@h/v1'],
    ['credentials in a string that is not a URL', 'http://qa-user:s3cr3t-pass@[nope/v1'],
  ])('exits 2 on a base URL with %s, without printing them', async (_label, baseUrl) => {
    const { code, stderr, stdout } = await run(['--base-url', baseUrl]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--base-url (carries credentials|is not a URL)/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(`${stdout}${stderr}`).not.toMatch(/qa-user|s3cr3t-pass/);
  });

  it('exits 2 without a key, saying where to put it', async () => {
    const { code, stderr } = await run(['--base-url', 'http://h/v1'], {});
    expect(code).toBe(2);
    expect(stderr).toMatch(/set PETSTORE_API_KEY/);
  });

  it('prints help and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--base-url URL/);
    expect(stdout).toMatch(/visible to other users in ps/);
  });
});
