import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../contract/package-root.js';
import { createLineWriter, escapeControl } from './line-writer.js';

describe('escapeControl', () => {
  it.each([
    {
      name: 'keeps a plain line',
      given: 'GET /v1/store/orders 200 0.3ms',
      want: 'GET /v1/store/orders 200 0.3ms',
    },
    { name: 'escapes an ANSI sequence', given: 'GET /\u001b[2J 404', want: 'GET /\\x1b[2J 404' },
    { name: 'escapes a one-byte CSI (C1)', given: '[a\u009b31m]', want: '[a\\x9b31m]' },
    { name: 'escapes a carriage return and a tab', given: 'a\rb\tc', want: 'a\\x0db\\x09c' },
    { name: 'escapes NUL and DEL', given: '\u0000\u007f', want: '\\x00\\x7f' },
    { name: 'escapes a bidirectional override', given: 'x\u202ey', want: 'x\\u202ey' },
    { name: 'keeps letters beyond ASCII', given: 'café ü 日本', want: 'café ü 日本' },
  ])('$name', ({ given, want }) => {
    expect(escapeControl(given)).toBe(want);
  });
});

describe('createLineWriter', () => {
  const open: number[] = [];
  afterEach(() => {
    for (const fd of open.splice(0)) closeSync(fd);
  });

  /** A FIFO with a reader that reads only when asked to, like a pipe to a stalled consumer. */
  function stalledPipe(): { writeFd: number; drain: () => string } {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-line-writer-')), 'out');
    execFileSync('mkfifo', [path]);
    const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = openSync(path, constants.O_WRONLY);
    open.push(readFd, writeFd);
    const buffer = Buffer.alloc(1 << 16);
    const drain = () => {
      let text = '';
      for (;;) {
        try {
          const n = readSync(readFd, buffer);
          if (n === 0) return text;
          text += buffer.toString('utf8', 0, n);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return text;
          throw error;
        }
      }
    };
    return { writeFd, drain };
  }

  it('drops and counts lines while a pipe is not read, then says how many once it drains', async () => {
    const { writeFd, drain } = stalledPipe();
    const out = createLineWriter(writeFd, { maxQueuedBytes: 8 * 1024, retryMs: 1 });
    const total = 20_000;
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      out.write(`GET /v1/store/orders?line=${i} 200 0.1ms`);
      // Let the writer run now and then, as the server's event loop would between requests.
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // Writing never waited for the reader.
    expect(performance.now() - started).toBeLessThan(10_000);
    // Read while the writer finishes: close() writes what is queued and the last count.
    let text = '';
    let closed: boolean | undefined;
    const closing = out.close(10_000).then((complete) => {
      closed = complete;
    });
    while (closed === undefined) {
      text += drain();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await closing;
    expect(closed).toBe(true);
    text += drain();
    const lines = text.trimEnd().split('\n');
    const notes = lines.filter((line) => line.includes('dropped'));
    for (const note of notes)
      expect(note).toMatch(/^\(\d+ log lines? dropped: the output was not being read\)$/);
    const counted = notes.reduce((sum, note) => sum + Number(/\d+/.exec(note)?.[0]), 0);
    expect(counted).toBeGreaterThan(0);
    const kept = lines.filter((line) => line.startsWith('GET '));
    // Every line written is either kept or counted in a note.
    expect(kept.length + counted).toBe(total);
    // What was kept is whole lines, in the order they were written, from the first one on.
    expect(kept[0]).toBe('GET /v1/store/orders?line=0 200 0.1ms');
    const numbers = kept.map((line) =>
      Number(/^GET \/v1\/store\/orders\?line=(\d+) 200 0\.1ms$/.exec(line)?.[1]),
    );
    expect(numbers.every((n, i) => Number.isInteger(n) && (i === 0 || n > (numbers[i - 1] as number)))).toBe(
      true,
    );
  });

  it('lets a process whose stdout nobody reads exit after close(), not hang on an unsettled await', () => {
    const { writeFd } = stalledPipe();
    // Its own process: vitest keeps its event loop alive, a command's loop empties once the server closes.
    // The pipe is filled first, so close() has lines it cannot write.
    const script = `
      const { createLineWriter } = await import(${JSON.stringify(pathToFileURL(join(packageRoot(), 'dist/src/mock/line-writer.js')).href)});
      const { constants, openSync, writeSync } = await import('node:fs');
      const fill = openSync('/proc/self/fd/3', constants.O_WRONLY | constants.O_NONBLOCK);
      try { for (;;) writeSync(fill, Buffer.alloc(65536)); } catch {}
      const out = createLineWriter(3, { maxQueuedBytes: 8192, retryMs: 1 });
      for (let i = 0; i < 1000; i++) out.write('x'.repeat(100));
      const flushed = await out.close(50);
      process.stderr.write('closed ' + flushed);
      process.exitCode = 7;`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe', writeFd],
      encoding: 'utf8',
    });
    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 7, stderr: 'closed false' });
  });

  it('writes every line, escaped, when the output keeps up', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-line-writer-')), 'log.txt');
    const fd = openSync(path, 'w');
    open.push(fd);
    const out = createLineWriter(fd);
    out.write('first');
    out.write('evil \u001b]0;title\u0007 line');
    expect(await out.close()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('first\nevil \\x1b]0;title\\x07 line\n');
  });
});
