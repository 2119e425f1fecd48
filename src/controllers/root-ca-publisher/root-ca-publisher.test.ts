import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api/api-client.js';
import { type RegistryFixture, registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../../util/logger.js';
import type { ControllerContext } from '../controller-descriptor.js';
import {
  adminClient,
  DOMAIN,
  getOrNone,
  type TestFiles,
  writeTestFiles,
} from '../serviceaccount-token/testing/token-test-support.js';
import { waitFor } from '../testing/controller-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../testing/run-descriptor.js';
import { rootCaCertificatePublisher, rootCaConfigMapName, rootCaDescription } from './root-ca-publisher.js';

const signal = new AbortController().signal;
const NAME = rootCaConfigMapName(DOMAIN);
const DESCRIPTION = rootCaDescription(DOMAIN);

describe('root CA certificate publisher', () => {
  let f: RegistryFixture;
  let files: TestFiles;
  let running: RunningDescriptors;
  let configMaps: ResourceClient;

  before(async () => {
    f = await registryFixture();
    files = await writeTestFiles('-----BEGIN CERTIFICATE-----\nroot bundle\n-----END CERTIFICATE-----\n');
    await f.createNamespace('existing');
    configMaps = adminClient(f.resources, 'configmaps');
    running = runDescriptors(f.resources, [rootCaCertificatePublisher], {
      config: { SAController: { RootCAFile: files.caFile } },
    });
  });
  after(async () => {
    await running.stop();
    await files.remove();
  });

  const published = (ns: string, check: (data: unknown, annotations: Record<string, string>) => boolean) =>
    waitFor(`${NAME} in ${ns}`, async () => {
      const cm = await getOrNone(configMaps, ns, NAME);
      return cm && check(cm.data, cm.metadata.annotations ?? {}) ? cm : undefined;
    });
  const isRoot = (data: unknown) => JSON.stringify(data) === JSON.stringify({ 'ca.crt': files.caPem });

  it('names the ConfigMap after the domain', () => {
    assert.equal(NAME, 'orch-root-ca.crt');
    assert.equal(DESCRIPTION.key, 'orch.io/description');
    assert.match(DESCRIPTION.value, /^Contains a CA bundle that can be used to verify the orch-apiserver when/);
  });

  it('publishes the bundle in namespaces that exist and in new ones, with the description', async () => {
    const cm = await published('existing', isRoot);
    assert.equal(cm.metadata.annotations?.[DESCRIPTION.key], DESCRIPTION.value);
    await f.createNamespace('fresh');
    await published('fresh', isRoot);
  });

  it('restores the data when changed and the annotation when removed', async () => {
    const cm = await published('existing', isRoot);
    await configMaps.update(
      { ...cm, metadata: { ...cm.metadata, annotations: {} }, data: { 'ca.crt': 'tampered', extra: 'x' } },
      signal,
    );
    await published('existing', (data, a) => isRoot(data) && a[DESCRIPTION.key] === DESCRIPTION.value);
  });

  it('creates it again when deleted', async () => {
    const cm = await published('fresh', isRoot);
    await configMaps.delete('fresh', NAME, {}, signal);
    const again = await published('fresh', isRoot);
    assert.notEqual(again.metadata.uid, cm.metadata.uid);
  });

  it('does not start without RootCAFile', async () => {
    const ctx = { config: {}, logger: silentLogger, domain: DOMAIN, signal } as unknown as ControllerContext;
    // It returns at once instead of running until the signal aborts.
    assert.equal(await rootCaCertificatePublisher.run(ctx), undefined);
  });
});
