import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../test/support/http-client.js';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.js';
import { BUNDLE, bundleApiServer } from './bundle-apiserver.js';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * What dist/cli/orch-apiserver.js does with the bundle (the same V8 flags, the code-cached load),
 * reading the loader from the sources; it prints what became of the code cache and, once ready,
 * whether the etcd client was loaded.
 */
function entrySource(outDir: string): string {
  const src = (f: string) => JSON.stringify(join(ROOT, 'src', 'cli', f));
  return `import { createRequire } from 'node:module';
import { register } from 'tsx/esm/api';
register();
const { holdYoungGeneration } = await import(${src('startup-heap.ts')});
holdYoungGeneration();
const { loadCodeCachedBundle } = await import(${src('code-cached-bundle.ts')});
const bundle = ${JSON.stringify(join(outDir, BUNDLE))};
const loaded = loadCodeCachedBundle(bundle);
process.stdout.write('code cache: ' + loaded.cache + '\\n');
const code = await loaded.exports.runApiServer(process.argv.slice(2), () => {
  const etcd = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/etcd3/'));
  process.stdout.write('etcd client loaded: ' + etcd + '\\n');
});
process.exit(code);
`;
}

describe('bundled orch-apiserver', { timeout: 120_000 }, () => {
  // Inside the repository, so the bundle's external packages resolve from its node_modules.
  mkdirSync(join(ROOT, '.scratch'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.scratch', 'bundle-'));
  let names: string[] = [];
  let server: ServerProcess | undefined;

  before(async () => {
    names = await bundleApiServer(outDir);
    writeFileSync(join(outDir, 'entry.mjs'), entrySource(outDir));
    server = await startServerProcess({ entry: join(outDir, 'entry.mjs') });
  });
  after(async () => {
    await server?.dispose();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('writes one CommonJS bundle with its code cache, which the server start uses', () => {
    assert.deepEqual(names, [BUNDLE, `${BUNDLE}.code-cache`, `${BUNDLE}.map`]);
    assert.match(server!.output(), /^code cache: used$/m);
  });

  it('runs in strict mode, as the ES modules it is made from do', () => {
    // A directive counts only before any other statement of the module's function.
    assert.match(readFileSync(join(outDir, BUNDLE), 'utf8'), /^'use strict';\n/);
  });

  it('loads the etcd client (gRPC, protobuf files) only with --storage-backend=etcd3', () => {
    assert.match(server!.output(), /^etcd client loaded: false$/m);
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
