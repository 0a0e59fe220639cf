// An `http://` base URL aimed at an https server looks like a server that resets every request;
// a completed TLS handshake (any certificate) tells the setup mistake apart.
import { isIP } from 'node:net';
import { connect } from 'node:tls';

/** Whether a TLS handshake with `host:port` completes within `timeoutMs`. Never rejects. */
export function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({
      host: bare,
      port,
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
