/**
 * A self-signed certificate made at test time, with nothing but `node:crypto`: an Ed25519 key and a minimal
 * X.509 v3 certificate (DER written by hand), valid for an hour. Enough for a `node:https` test server; no
 * certificate is kept in the repository and no `openssl` binary is needed.
 */
import { generateKeyPairSync, sign } from 'node:crypto';

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One DER element: tag, length, contents. */
function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const objectId = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const smallInteger = (value: number) => der(0x02, Buffer.from([value]));
/** UTCTime, `YYMMDDhhmmssZ`. */
const utcTime = (date: Date) =>
  der(0x17, Buffer.from(`${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));

const ED25519 = '2b6570'; // 1.3.101.112
const COMMON_NAME = '550403'; // 2.5.4.3

/**
 * A key and a self-signed certificate for `host`, in PEM, for `https.createServer`.
 *
 * @example https.createServer(selfSignedCertificate(), handler)
 */
export function selfSignedCertificate(host = 'localhost'): { key: string; cert: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const algorithm = sequence(objectId(ED25519));
  const name = sequence(der(0x31, sequence(objectId(COMMON_NAME), der(0x0c, Buffer.from(host)))));
  const now = Date.now();
  const toBeSigned = sequence(
    der(0xa0, smallInteger(2)), // version 3
    smallInteger(1), // serial number
    algorithm,
    name, // issuer: itself
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 3_600_000))),
    name, // subject
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign(null, toBeSigned, privateKey);
  const certificate = sequence(toBeSigned, algorithm, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
  };
}
