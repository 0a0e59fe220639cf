/**
 * Whether a server speaks TLS at an address: an `http://` base URL aimed at an https server gets no HTTP
 * answer (Node's https server closes the connection, others send a TLS alert or a 400), which would look
 * like a server that resets every request. A TLS handshake that completes tells the setup mistake apart.
 * Any certificate will do: the probe sends nothing but the handshake and closes.
 */
import { isIP } from 'node:net';
import { connect } from 'node:tls';

/**
 * Resolves `true` when a TLS handshake with `host:port` completes within `timeoutMs`, `false` on any error,
 * a close or the time limit. Never rejects.
 *
 * @example await speaksTls('127.0.0.1', 8443, 2000) // true for an https server, whatever its certificate
 */
export function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  // A URL writes an IPv6 host in brackets; the socket takes it bare.
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({
      host: bare,
      port,
      // The certificate is not judged: any completed handshake proves the server speaks TLS.
      rejectUnauthorized: false,
      ...(isIP(bare) === 0 ? { servername: bare } : {}),
    });
    const timer = setTimeout(() => finish(false), timeoutMs);
    function finish(answer: boolean) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    }
    socket.once('secureConnect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });
}
