/** Log lines that never block the server (as `process.stdout` may): past a small queue, dropped, counted. */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';

// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional overrides and isolates.
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** The line with every control character escaped visibly, so a request cannot drive the terminal. */
export function escapeControl(line: string): string {
  return line.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/** Linux: a terminal or pipe reopened O_NONBLOCK via /proc (the shell's stays blocking); a socket by node. */
function nonBlockingDescriptor(fd: number): { fd: number; own: boolean } {
  try {
    const stat = fstatSync(fd);
    if (process.platform === 'linux' && (stat.isCharacterDevice() || stat.isFIFO())) {
      return { fd: openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK), own: true };
    }
    if ((stat.isSocket() || stat.isFIFO()) && (fd === 1 || fd === 2)) {
      void (fd === 1 ? process.stdout : process.stderr).writable;
    }
  } catch {} // A descriptor that cannot be opened again is written as it is.
  return { fd, own: false };
}

export function createLineWriter(fd: number, { maxQueuedBytes = 64 * 1024, retryMs = 25 } = {}) {
  const target = nonBlockingDescriptor(fd);
  let queue: Buffer[] = [];
  let queuedBytes = 0;
  let unreported = 0; // dropped since the output last flowed: reported once it does
  let timer: NodeJS.Timeout | undefined;
  let broken = false;
  let closed = false;
  let idle: (() => void) | undefined;

  const busy = () => !broken && (queuedBytes > 0 || unreported > 0);
  const schedule = (delay: number) => {
    if (timer === undefined && !closed) timer = setTimeout(flush, delay).unref();
  };
  const enqueue = (bytes: Buffer) => {
    queue.push(bytes);
    queuedBytes += bytes.length;
  };
  const report = () => {
    if (unreported === 0) return;
    const s = unreported === 1 ? '' : 's';
    enqueue(Buffer.from(`(${unreported} log line${s} dropped: the output was not being read)\n`));
    unreported = 0;
  };

  function flush(): void {
    timer = undefined;
    if (!broken && queuedBytes === 0) report();
    if (!busy()) {
      idle?.();
      return;
    }
    const chunk = Buffer.concat(queue, queuedBytes);
    let written = 0;
    try {
      written = writeSync(target.fd, chunk);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The reader went away (EPIPE) or the output is gone: nothing will be read, so stop writing.
      if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') broken = true;
    }
    const rest = broken ? chunk.subarray(0, 0) : chunk.subarray(written);
    queue = rest.length > 0 ? [rest] : [];
    queuedBytes = rest.length;
    if (written > 0) report();
    if (busy()) schedule(written > 0 ? 0 : retryMs);
    else idle?.();
  }

  return {
    /** Queues one line (without its newline); drops it when the queue is full. */
    write(line: string): void {
      if (broken || closed) return;
      const bytes = Buffer.from(`${escapeControl(line)}\n`);
      if (queuedBytes + bytes.length <= maxQueuedBytes) {
        enqueue(bytes);
        schedule(0);
      } else {
        unreported++;
        schedule(retryMs);
      }
    },
    /** Writes what is queued for up to `timeoutMs`, then releases the output; `true` when all went out. */
    async close(timeoutMs = 1000): Promise<boolean> {
      if (!closed && busy()) {
        await new Promise<void>((resolve) => {
          // A timer that holds the process: the stopping command's loop has nothing else left to wait on.
          const wait = setTimeout(resolve, timeoutMs);
          idle = () => resolve(clearTimeout(wait));
          clearTimeout(timer);
          flush();
        });
      }
      closed = true;
      clearTimeout(timer);
      if (target.own) closeSync(target.fd);
      return queuedBytes === 0 && !broken;
    },
  };
}
