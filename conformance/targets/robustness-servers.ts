/**
 * Hostile targets: correct except that some answers hang, are not JSON, are cut short, reset the
 * connection, redirect, or are 50 MB long. The suite must report each as a failure of the check that
 * hit it, finish the run, and never leak the key.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Behaviour,
  behaviour,
  CORRECT,
  MOCK_LIKE_READINGS,
  type Reply,
  TARGET_KEY,
} from './reference-server.js';

type Raw = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const FIFTY_MB = 50 * 1024 * 1024;

/** Writes 50 MB of a JSON array, respecting back-pressure, until done or the client goes away. */
const hugeBody: Raw = async (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(FIFTY_MB) });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk[0] = 0x5b; // '['
  let sent = 0;
  while (sent < FIFTY_MB && !res.destroyed) {
    const ok = res.write(sent === 0 ? chunk : chunk.fill(0x20));
    sent += chunk.length;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  res.end();
};

export const MISBEHAVIOURS: ReadonlyArray<{ name: string; raw: Raw; message: RegExp }> = [
  { name: 'hang', raw: () => undefined, message: /time-out/ },
  {
    name: 'non-json',
    raw: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body>Service temporarily unavailable</body></html>');
    },
    message: /not valid JSON/,
  },
  {
    name: 'truncated-json',
    raw: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{"id":1,"petId":10},{"id":3,"pe');
    },
    message: /not valid JSON/,
  },
  {
    name: 'premature-close',
    raw: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":1,', () => res.socket?.destroy());
    },
    message: /closed or reset/,
  },
  { name: 'reset', raw: (req) => void req.socket.destroy(), message: /closed or reset/ },
  {
    name: 'redirect',
    raw: (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:9/v1/store/orders' });
      res.end();
    },
    message: /redirected \(302\) to http:\/\/127\.0\.0\.1:9\/v1\/store\/orders/,
  },
  { name: 'huge-body', raw: hugeBody, message: /exceeded 1048576 bytes/ },
];

/** Misbehaves only on the authenticated order list (list.orders' request); correct everywhere else. */
export function onListOnly(raw: Raw): Behaviour {
  return behaviour(MOCK_LIKE_READINGS, { listOrders: (): Reply => ({ raw }) });
}

/** Misbehaves on every request. */
export function everywhere(raw: Raw): Behaviour {
  return behaviour(MOCK_LIKE_READINGS, { handle: async (): Promise<Reply> => ({ raw }) });
}

/** Echoes the Authorization header it received in every Error message and in the list: a key leak trap. */
export const ECHOES_KEY: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  error(b, status, code, message, headers) {
    return CORRECT.error(b, status, code, `${message} You sent: ${TARGET_KEY} as ${code}`, headers);
  },
  listOrders(b) {
    return CORRECT.json(b, 200, [{ id: TARGET_KEY, petId: 10 }], { 'x-debug-key': TARGET_KEY });
  },
  unknownPath: () => ({ status: 302, headers: { location: `http://127.0.0.1:9/login?key=${TARGET_KEY}` } }),
});
