/**
 * The watch fan-out baseline, run as its own process: a bare node:http2 server that keeps every
 * GET open as a stream and, on each POST, writes one watch-event line naming the posted object to
 * all of them. It does no storage, no encoding per request and no routing, so its latency is
 * what the transport alone costs on this machine. Prints its URL; exits on SIGTERM.
 *
 * Usage: node --import tsx bare-fanout-server.ts <cert.pem> <key.pem>
 */
import { readFileSync } from 'node:fs';
import { createSecureServer, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';

const [certPath, keyPath] = process.argv.slice(2);
const streams = new Set<Http2ServerResponse>();

/** A watch event about the size of the API server's for the same ConfigMap. */
function eventLine(name: string): Buffer {
  const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const object = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: 'bench',
      uid: '00000000-0000-4000-8000-000000000000',
      resourceVersion: '100000',
      creationTimestamp: time,
      managedFields: [
        {
          manager: 'bench',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
        },
      ],
    },
    data: { a: 'b' },
  };
  return Buffer.from(`${JSON.stringify({ type: 'ADDED', object })}\n`);
}

const server = createSecureServer(
  {
    cert: readFileSync(certPath),
    key: readFileSync(keyPath),
    allowHTTP1: true,
    settings: { maxConcurrentStreams: 1000 },
  },
  (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const line = eventLine(JSON.parse(Buffer.concat(chunks).toString()).metadata.name);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
      for (const s of streams) s.write(line);
    });
  },
);
server.listen(0, '127.0.0.1', () => console.log(`https://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
