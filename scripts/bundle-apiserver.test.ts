import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../test/support/http-client.js';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.js';
import { bundleApiServer } from './bundle-apiserver.js';

const ROOT = resolve(import.meta.dirname, '..');

describe('bundled orch-apiserver', { timeout: 120_000 }, () => {
  // Inside the repository, so the bundle's external packages resolve from its node_modules.
  mkdirSync(join(ROOT, '.scratch'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.scratch', 'bundle-'));
  let names: string[] = [];
  let server: ServerProcess | undefined;

  before(async () => {
    names = await bundleApiServer(outDir);
    // What dist/cli/orch-apiserver.js does, without its V8 tuning.
    writeFileSync(
      join(outDir, 'entry.mjs'),
      "const { runApiServer } = await import('./run-api-server.js');\nprocess.exit(await runApiServer(process.argv.slice(2)));\n",
    );
    server = await startServerProcess({ entry: join(outDir, 'entry.mjs') });
  });
  after(async () => {
    await server?.dispose();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('keeps the stores and the compactor in chunks loaded on demand', () => {
    const main = readFileSync(join(outDir, 'run-api-server.js'), 'utf8');
    for (const chunk of ['lmdb-store', 'etcd-store', 'compactor'])
      assert.ok(
        names.some((n) => n.startsWith(`run-api-server-${chunk}-`) && n.endsWith('.js')),
        `${chunk} chunk in ${names}`,
      );
    // The etcd client (gRPC, protobuf files) is loaded only with --storage-backend=etcd3.
    assert.doesNotMatch(main, /from ["']etcd3["']/);
  });

  it('serves: readiness, YAML and metrics from the bundled libraries', async () => {
    const s = server!;
    const as = { ca: s.admin.ca, as: s.admin };
    const ready = await request(s.url, '/readyz', as);
    assert.equal(ready.status, 200, ready.text);
    const yaml = await request(s.url, '/api/v1/namespaces/default', {
      ...as,
      headers: { accept: 'application/yaml' },
    });
    assert.equal(yaml.status, 200, yaml.text);
    assert.match(yaml.text, /^apiVersion: v1\nkind: Namespace\n/);
    const metrics = await request(s.url, '/metrics', as);
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /^# HELP apiserver_request_total /m);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    assert.equal(await server!.stop('SIGTERM'), 0);
  });
});
