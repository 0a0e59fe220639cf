// The baseline: a bare node:http server that answers every request with one recorded response (status,
// headers and body bytes), doing no work at all. Started by bench/run.ts as its own process.
//   node bench/bare-server.js PORT RECORDING.json
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, recordingPath] = process.argv.slice(2);
const recording = JSON.parse(readFileSync(recordingPath, 'utf8'));
const body = Buffer.from(recording.body, 'base64');
const headers = { ...recording.headers, 'content-length': String(body.length) };

createServer((_req, res) => {
  res.writeHead(recording.status, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
