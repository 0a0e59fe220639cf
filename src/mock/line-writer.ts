/**
 * How `petstore mock` prints its lines (the banner, one line per request, reloads): never blocking the
 * server and never holding more than a small queue in memory, whoever reads the output.
 *
 * `process.stdout` does neither: on a terminal it writes synchronously, so a paused terminal (Ctrl+S, a
 * stopped pager) stops the whole server; on a pipe that nobody reads it buffers every line in memory.
 * Here each line goes out with a non-blocking write on a descriptor of our own. While the output does not
 * drain, lines wait in a queue of at most `maxQueuedBytes`; past that they are dropped and counted, and
 * the count is printed once the output flows again. Control characters from requests are escaped, so a
 * path or session name cannot move the cursor, retitle the window or hide text.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';

/** Writes whole lines; see the module comment. */
export interface LineWriter {
  /** Queues one line (without its newline); drops it when the queue is full. */
  write(line: string): void;
  /** Lines dropped so far because the output did not drain. */
  readonly dropped: number;
  /**
   * Tries to write what is queued for up to `timeoutMs`, then stops writing and releases the descriptor.
   * Resolves `true` when everything queued went out.
   */
  close(timeoutMs?: number): Promise<boolean>;
}

export interface LineWriterOptions {
  /** The queue's cap; a line that does not fit is dropped (default 64 KiB). */
  maxQueuedBytes?: number;
  /** How long to wait before trying a write that found the output full again (default 25 ms). */
  retryMs?: number;
}

// C0 controls, DEL and the C1 controls (0x9B is a one-byte CSI on some terminals), the line and paragraph
// separators, and the bidirectional overrides and isolates that reorder what a reader sees.
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The line with every control character written as a visible escape.
 *
 * @example escapeControl('GET /\u001b[2J 404') // 'GET /\\x1b[2J 404'
 */
export function escapeControl(line: string): string {
  return line.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/**
 * A descriptor for the same output as `fd` on which writes never block. On Linux a terminal or a pipe is
 * opened again through /proc, which gives a file description of our own, so setting it non-blocking
 * changes nothing for the shell or the other end. A socket (how node connects a child's stdio) cannot be
 * opened again; creating node's own stdout or stderr stream makes it non-blocking, as node does for every
 * pipe. A file keeps `fd`: writing to a file does not wait for a reader.
 */
function nonBlockingDescriptor(fd: number): { fd: number; own: boolean } {
  try {
    const stat = fstatSync(fd);
    if (process.platform === 'linux' && (stat.isCharacterDevice() || stat.isFIFO())) {
      return { fd: openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK), own: true };
    }
    if ((stat.isSocket() || stat.isFIFO()) && (fd === 1 || fd === 2)) {
      const stream = fd === 1 ? process.stdout : process.stderr;
      if (!stream.writable) return { fd, own: false };
    }
  } catch {
    // A descriptor that cannot be opened again: write to it as it is.
  }
  return { fd, own: false };
}

function isBusy(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}

/**
 * A line writer on a descriptor (1 for stdout).
 *
 * @example
 * const out = createLineWriter(1);
 * out.write('GET /v1/store/orders 200 0.3ms');
 */
export function createLineWriter(fd: number, options: LineWriterOptions = {}): LineWriter {
  const maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024;
  const retryMs = options.retryMs ?? 25;
  const target = nonBlockingDescriptor(fd);
  let queue: Buffer[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  /** Dropped since the output last flowed: reported once it does. */
  let unreported = 0;
  let scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;
  let broken = false;
  let closed = false;
  const idle: Array<() => void> = [];

  function enqueue(text: string): boolean {
    const bytes = Buffer.from(text);
    if (queuedBytes + bytes.length > maxQueuedBytes) return false;
    queue.push(bytes);
    queuedBytes += bytes.length;
    return true;
  }

  function schedule(delay: number): void {
    if (scheduled !== undefined || closed) return;
    // A batch per turn of the event loop, not a system call per line; a retry waits a little.
    scheduled =
      delay === 0
        ? setImmediate(flush)
        : setTimeout(() => {
            scheduled = undefined;
            flush();
          }, delay).unref();
    if (delay === 0) (scheduled as NodeJS.Immediate).unref();
  }

  /** Says what was lost, once the output flows again, after the lines queued before the loss. */
  function report(): void {
    if (unreported === 0) return;
    const bytes = Buffer.from(
      `(${unreported} log line${unreported === 1 ? '' : 's'} dropped: the output was not being read)\n`,
    );
    unreported = 0;
    queue.push(bytes);
    queuedBytes += bytes.length;
  }

  function flush(): void {
    scheduled = undefined;
    if (!broken && queue.length === 0) report();
    if (broken || queue.length === 0) {
      settle();
      return;
    }
    const chunk = queue.length === 1 ? (queue[0] as Buffer) : Buffer.concat(queue, queuedBytes);
    let written = 0;
    try {
      written = writeSync(target.fd, chunk);
    } catch (error) {
      if (!isBusy(error)) {
        // The reader went away (EPIPE) or the output is gone: nothing will be read, so stop writing.
        broken = true;
        queue = [];
        queuedBytes = 0;
        settle();
        return;
      }
    }
    const rest = chunk.subarray(written);
    queue = rest.length > 0 ? [rest] : [];
    queuedBytes = rest.length;
    if (written > 0) report();
    if (queue.length > 0) schedule(written > 0 ? 0 : retryMs);
    else settle();
  }

  function cancelScheduled(): void {
    clearTimeout(scheduled as NodeJS.Timeout);
    clearImmediate(scheduled as NodeJS.Immediate);
    scheduled = undefined;
  }

  function settle(): void {
    if ((queue.length > 0 || unreported > 0) && !broken) return;
    for (const done of idle.splice(0)) done();
  }

  return {
    write(line) {
      if (broken || closed) return;
      if (enqueue(`${escapeControl(line)}\n`)) {
        schedule(0);
      } else {
        dropped++;
        unreported++;
        schedule(retryMs);
      }
    },
    get dropped() {
      return dropped;
    },
    async close(timeoutMs = 1000) {
      if (!closed && (queue.length > 0 || unreported > 0) && !broken) {
        const flushed = new Promise<void>((resolve) => idle.push(resolve));
        cancelScheduled();
        flush();
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        });
        await Promise.race([flushed, timedOut]);
        clearTimeout(timer);
      }
      const complete = queue.length === 0 && !broken;
      closed = true;
      cancelScheduled();
      if (target.own) closeSync(target.fd);
      return complete;
    },
  };
}
