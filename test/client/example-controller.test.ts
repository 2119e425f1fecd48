import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runConfigMapMirror } from '../../examples/configmap-mirror.js';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ConfigMap } from '../../src/apis/core/config-map.js';
import { StatusError } from '../../src/apis/meta/status.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { loadKubeconfig } from '../../src/client/rest/kubeconfig.js';
import { ConfigMaps, Namespaces } from '../../src/client/typed/builtin-types.js';
import type { TypedResourceClient } from '../../src/client/typed/typed-client.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { eventually } from '../apiextensions/crd-fixtures.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the README example controller (examples/configmap-mirror.ts)', () => {
  let dataDir: string;
  let server: RunningServer;
  let client: HttpApiClient;
  let cms: TypedResourceClient<ConfigMap>;
  const stop = new AbortController();
  let controller: Promise<void>;

  /** The copy in `dst`, once `check` holds for it (undefined: once it is gone). */
  const copy = (name: string, check: (c: ConfigMap | undefined) => boolean) =>
    eventually(`the copy of ${name} to be as expected`, async () => {
      const c = await cms.get('dst', name).catch((e: unknown) => {
        if (e instanceof StatusError && e.code === 404) return undefined;
        throw e;
      });
      return check(c) ? { copy: c } : undefined;
    });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-example-controller-'));
    server = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', runControllers: false });
    const config = await loadKubeconfig(server.kubeconfigPath!);
    client = await HttpApiClient.connect({ config, domain: ORCH_DOMAIN, fieldManager: 'test', discoveryPeriodMs: 0 });
    for (const name of ['src', 'dst']) await client.typed(Namespaces).create('', { metadata: { name } });
    cms = client.typed(ConfigMaps);
    controller = runConfigMapMirror({
      kubeconfig: server.kubeconfigPath!,
      from: 'src',
      to: 'dst',
      signal: stop.signal,
    });
  });
  after(async () => {
    stop.abort();
    await controller;
    client?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('mirrors labelled ConfigMaps, follows their changes and removes copies', async () => {
    await cms.create('src', { metadata: { name: 'a', labels: { mirror: 'true' } }, data: { k: '1' } });
    await cms.create('src', { metadata: { name: 'private' }, data: { secret: 'no' } });
    const first = await copy('a', (c) => c?.data?.k === '1');
    assert.deepEqual(first.copy?.metadata.labels, { 'mirrored-from': 'src' });
    assert.equal(first.copy?.metadata.managedFields?.[0]?.manager, 'configmap-mirror');

    await cms.patch('src', 'a', 'merge', { data: { k: '2', extra: 'x' } });
    await copy('a', (c) => c?.data?.k === '2' && c.data.extra === 'x');

    // A copy deleted by someone else comes back.
    await cms.delete('dst', 'a');
    await copy('a', (c) => c?.data?.k === '2');

    // The label removed from the source: the copy goes.
    await cms.patch('src', 'a', 'merge', { metadata: { labels: { mirror: null } } });
    await copy('a', (c) => c === undefined);

    // A labelled source deleted: its copy goes too.
    await cms.create('src', { metadata: { name: 'b', labels: { mirror: 'true' } }, data: {} });
    await copy('b', (c) => c !== undefined);
    await cms.delete('src', 'b');
    await copy('b', (c) => c === undefined);

    // What was never labelled is never copied; other ConfigMaps in dst are left alone.
    await cms.create('dst', { metadata: { name: 'own' }, data: { mine: 'yes' } });
    await new Promise((r) => setTimeout(r, 200));
    await assert.rejects(cms.get('dst', 'private'), (e) => e instanceof StatusError && e.code === 404);
    assert.deepEqual((await cms.get('dst', 'own')).data, { mine: 'yes' });
  });

  it('stops when its signal aborts', async () => {
    stop.abort();
    await controller;
  });

  it('is the example the README shows, verbatim', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = readFileSync(join(ROOT, 'examples', 'configmap-mirror.ts'), 'utf8');
    assert.ok(readme.includes(`\`\`\`ts\n${example}\`\`\``), 'README lacks examples/configmap-mirror.ts as a ts block');
  });
});
