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

/** The credentials of an Authorization header as received: what follows the scheme, else the whole value. */
function receivedKey(authorization: string | undefined): string {
  const value = authorization ?? '';
  return /^\S+ +(.*)$/.exec(value)?.[1] ?? value;
}

/**
 * Echoes the key it received, written by `encode`, in every Error message, in the list (as an order id,
 * which fails list.orders, so the body reaches the report), in a response header and in a redirect's
 * Location: a key leak trap. The echo goes into the bodies verbatim, so a JSON-escaped form is sent as
 * written and not escaped once more. It accepts the key it is built with.
 */
export function echoesKey(key: string, encode: (received: string) => string = (k) => k): Behaviour {
  return behaviour(MOCK_LIKE_READINGS, {
    authorized: (_b, authorization) => /^bearer +(\S+)$/i.exec(authorization ?? '')?.[1] === key,
    // Each request gets parts that echo the header that request carried, not a key known in advance.
    handle(b, request, store) {
      const echo = encode(receivedKey(request.authorization));
      // A header cannot carry a line break or a character above U+00FF: such a form goes into headers
      // URL-encoded (which redaction must then decode before it folds), and into bodies as it is.
      const headerEcho = [...echo].every((c) => c === '\t' || (c >= ' ' && c <= '~'))
        ? echo
        : encodeURIComponent(echo);
      const json = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
        status,
        headers: { 'content-type': 'application/json', 'x-debug-key': headerEcho, ...headers },
        body,
      });
      const echoing: Behaviour = {
        ...b,
        error: (_inner, status, code, message, headers) =>
          json(
            status,
            `{"code":${JSON.stringify(code)},"message":${JSON.stringify(message).slice(0, -1)} You sent: ${echo}","status":${status}}`,
            headers,
          ),
        listOrders: () => json(200, `[{"id":"${echo}","petId":10,"quantity":1,"complete":false}]`),
        unknownPath: () => ({
          status: 302,
          headers: { location: `http://127.0.0.1:9/login?key=${headerEcho}` },
        }),
      };
      return CORRECT.handle(echoing, request, store);
    },
  });
}

/** Echoes the Authorization header it received, as received. */
export const ECHOES_KEY: Behaviour = echoesKey(TARGET_KEY);

/**
 * One echoing target per form a key can come back in. The key has the characters that escape differently
 * in each: `/`, `+`, `=`, and `~`, `?`, `>`, whose base64 holds `+` and `/` (so base64url differs). Each form is the text the target writes, so a test can look for exactly that.
 */
export const ECHO_KEY = 'echo/Key+with=odd~chars?-0123456789>';

/** Every character as a JSON `\uXXXX` escape, with the hex digits in one case. */
const unicodeEscapes = (k: string, upper: boolean) =>
  [...k]
    .map((c) => {
      const digits = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? digits.toUpperCase() : digits}`;
    })
    .join('');

const base64 = (k: string) => Buffer.from(k).toString('base64');
/** `separator` after every `n` characters but the last. */
const everyN = (text: string, n: number, separator: string) =>
  (text.match(new RegExp(`.{1,${n}}`, 'gs')) ?? []).join(separator);
const mixedCase = (text: string) => [...text].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join('');
/** ASCII letters, digits and signs as their fullwidth forms (U+FF01 to U+FF5E). */
const fullwidth = (k: string) =>
  [...k].map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

export const ECHO_FORMS: ReadonlyArray<{ form: string; encode: (k: string) => string }> = [
  { form: 'raw', encode: (k) => k },
  { form: 'JSON with escaped slashes', encode: (k) => k.replace(/\//g, '\\/') },
  { form: 'JSON \\u escapes for every character, upper-case hex', encode: (k) => unicodeEscapes(k, true) },
  { form: 'JSON \\u escapes for every character, lower-case hex', encode: (k) => unicodeEscapes(k, false) },
  { form: 'JSON \\u002b for the plus sign only', encode: (k) => k.replace(/\+/g, '\\u002b') },
  { form: 'URL-encoded, upper-case', encode: (k) => encodeURIComponent(k) },
  {
    form: 'URL-encoded, lower-case',
    encode: (k) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  },
  {
    form: 'URL-encoded, every character',
    encode: (k) => [...k].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
  },
  { form: 'base64', encode: (k) => Buffer.from(k).toString('base64') },
  { form: 'base64 after one byte', encode: (k) => Buffer.from(`:${k}`).toString('base64') },
  { form: 'base64 after two bytes', encode: (k) => Buffer.from(`::${k}`).toString('base64') },
  { form: 'base64url', encode: (k) => Buffer.from(k).toString('base64url') },
  { form: 'base64url after one byte', encode: (k) => Buffer.from(`:${k}`).toString('base64url') },
  { form: 'base64url after two bytes', encode: (k) => Buffer.from(`::${k}`).toString('base64url') },
  { form: 'base64 of the whole header', encode: (k) => Buffer.from(`Bearer ${k}`).toString('base64') },
  { form: 'the first 12 characters', encode: (k) => k.slice(0, 12) },
  { form: 'the last 12 characters', encode: (k) => k.slice(-12) },
  { form: 'a 20-character piece, JSON-escaped', encode: (k) => k.slice(2, 22).replace(/\//g, '\\/') },
  { form: 'HTML character references', encode: (k) => [...k].map((c) => `&#${c.charCodeAt(0)};`).join('') },
  // Layered encodings: each decodes to one of the forms above only after two or three layers.
  { form: 'URL-encoded twice (%252F)', encode: (k) => encodeURIComponent(encodeURIComponent(k)) },
  {
    form: 'URL-encoded three times',
    encode: (k) => encodeURIComponent(encodeURIComponent(encodeURIComponent(k))),
  },
  {
    form: 'JSON-escaped slashes, then URL-encoded',
    encode: (k) => encodeURIComponent(k.replace(/\//g, '\\/')),
  },
  {
    form: 'JSON \\u escapes for every character, then URL-encoded',
    encode: (k) => encodeURIComponent(unicodeEscapes(k, true)),
  },
  { form: 'JSON-escaped twice (a JSON string in a JSON string)', encode: (k) => k.replace(/\//g, '\\\\\\/') },
  {
    form: 'base64 of the whole header, URL-encoded twice',
    encode: (k) => encodeURIComponent(encodeURIComponent(Buffer.from(`Bearer ${k}`).toString('base64'))),
  },
  // Forms that are not escapes: hex, base64 broken into lines or groups, invisible characters between the
  // characters, fullwidth letters.
  { form: 'hex, lower case', encode: (k) => Buffer.from(k).toString('hex') },
  { form: 'hex, upper case', encode: (k) => Buffer.from(k).toString('hex').toUpperCase() },
  { form: 'hex, mixed case', encode: (k) => mixedCase(Buffer.from(k).toString('hex')) },
  { form: 'hex, a space between bytes', encode: (k) => everyN(Buffer.from(k).toString('hex'), 2, ' ') },
  { form: 'base64 broken every 10 characters by \\n', encode: (k) => everyN(base64(k), 10, '\n') },
  { form: 'base64 broken every 10 characters by \\r\\n', encode: (k) => everyN(base64(k), 10, '\r\n') },
  { form: 'base64 broken every 10 characters by a space', encode: (k) => everyN(base64(k), 10, ' ') },
  {
    form: 'base64 broken every 10 characters by a JSON \\n escape',
    encode: (k) => everyN(base64(k), 10, '\\n'),
  },
  {
    form: 'base64 of the key three times, in MIME lines (76 characters, CRLF)',
    encode: (k) => everyN(base64(k.repeat(3)), 76, '\r\n'),
  },
  {
    form: 'base64url broken every 10 characters by \\n',
    encode: (k) => everyN(Buffer.from(k).toString('base64url'), 10, '\n'),
  },
  { form: 'a zero-width space between characters', encode: (k) => [...k].join('\u200b') },
  {
    form: 'zero-width joiners, word joiners and BOMs between characters',
    encode: (k) => [...k].join('\u200d\u2060\ufeff'),
  },
  { form: 'fullwidth', encode: (k) => fullwidth(k) },
  {
    form: 'fullwidth, a zero-width non-joiner between characters',
    encode: (k) => [...fullwidth(k)].join('\u200c'),
  },
  { form: 'fullwidth hex', encode: (k) => fullwidth(Buffer.from(k).toString('hex')) },
];
