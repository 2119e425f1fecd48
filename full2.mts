import { mkdtempSync } from 'node:fs';
import { startBenchServer } from './server-proc.js';
const server = await startBenchServer(mkdtempSync('/tmp/prof-r-'));
const { request } = await import('node:https');
await new Promise<void>((resolve) => { const req = request(new URL('/api/v1/namespaces/default/configmaps', server.url), { method: 'POST', ca: server.admin.ca, cert: server.admin.cert, key: server.admin.key, headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', () => resolve()); }); req.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-000042' }, data: { a: 'b'.repeat(200) } })); });
console.log(server.pid, server.url);
await new Promise((r) => setTimeout(r, 20000));
await server.stop(); process.exit(0);
