import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { type RegistryFixture, registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { tokenSecretNames } from '../serviceaccount-token/serviceaccount-token-controller.js';
import { adminClient, DOMAIN, getOrNone, manualClock } from '../serviceaccount-token/testing/token-test-support.js';
import { waitFor } from '../testing/controller-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../testing/run-descriptor.js';
import { legacyServiceAccountTokenCleaner, legacyTokenNames, parseDate } from './legacy-token-cleaner.js';
import { podSecretNames } from './pod-secret-names.js';

const signal = new AbortController().signal;
const names = legacyTokenNames(DOMAIN);
const tokenNames = tokenSecretNames(DOMAIN);
const NS = 'apps';

describe('legacy token cleaner helpers', () => {
  it('parses dates as Go does with 2006-01-02', () => {
    const table: [string, number | undefined][] = [
      ['2025-03-01', Date.UTC(2025, 2, 1)],
      ['2024-02-29', Date.UTC(2024, 1, 29)],
      ['2025-02-29', undefined],
      ['2025-3-01', undefined],
      ['2025-03-01T00:00:00Z', undefined],
      ['', undefined],
    ];
    for (const [s, want] of table) assert.equal(parseDate(s), want, s);
  });

  it('finds the secrets a pod refers to', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        imagePullSecrets: [{ name: 'pull' }],
        initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'env-from' } }] }],
        containers: [{ name: 'c', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'env-key', key: 'k' } } }] }],
        volumes: [
          { name: 'a', secret: { secretName: 'vol' } },
          { name: 'b', projected: { sources: [{ secret: { name: 'projected' } }, { configMap: { name: 'cm' } }] } },
          { name: 'c', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
          { name: 'd', rbd: { secretRef: { name: 'rbd' } } },
        ],
      },
    } as ApiObject;
    assert.deepEqual([...podSecretNames(pod)].sort(), [
      'csi',
      'env-from',
      'env-key',
      'projected',
      'pull',
      'rbd',
      'vol',
    ]);
  });
});

describe('legacy-serviceaccount-token-cleaner controller', () => {
  const clock = manualClock(new Date('2025-01-01T12:00:00Z'));
  let f: RegistryFixture;
  let secrets: ResourceClient;
  let running: RunningDescriptors | undefined;

  before(async () => {
    f = await registryFixture({ clock });
    await f.createNamespace(NS);
    await f.createNamespace(DOMAIN.systemNamespace);
    secrets = adminClient(f.resources, 'secrets');
    const accounts = adminClient(f.resources, 'serviceaccounts');
    const configMaps = adminClient(f.resources, 'configmaps');
    await configMaps.create(
      DOMAIN.systemNamespace,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: names.trackingConfigMap },
        data: { since: '2025-01-01' },
      },
      signal,
    );
    await accounts.create(NS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }, signal);
    const sa = await accounts.create(
      NS,
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'app' },
        secrets: ['auto', 'mounted', 'used', 'young'].map((n) => ({ name: `${n}-token` })),
      },
      signal,
    );
    const token = (name: string, labels: Record<string, string> = {}) =>
      secrets.create(
        NS,
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name,
            labels,
            annotations: { [tokenNames.nameAnnotation]: 'app', [tokenNames.uidAnnotation]: sa.metadata.uid ?? '' },
          },
          type: tokenNames.type,
          data: { token: Buffer.from('x').toString('base64') },
        },
        signal,
      );
    await token('auto-token');
    await token('manual-token'); // not listed by the account: not auto-generated
    await token('mounted-token');
    await token('used-token', { [names.lastUsedLabel]: '2025-02-20' });
    await adminClient(f.resources, 'pods').create(
      NS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'uses-it' },
        spec: {
          containers: [{ name: 'c', image: 'busybox' }],
          volumes: [{ name: 't', secret: { secretName: 'mounted-token' } }],
        },
      },
      signal,
    );
    clock.set(new Date('2025-02-25T12:00:00Z'));
    await token('young-token');
  });
  after(() => running?.stop());

  /** Runs the cleaner (one pass at start) with a 30-day CleanUpPeriod at `date`. */
  const runAt = async (date: string) => {
    await running?.stop();
    clock.set(new Date(date));
    running = runDescriptors(f.resources, [legacyServiceAccountTokenCleaner], {
      clock,
      config: { LegacySATokenCleaner: { CleanUpPeriod: '720h0m0s' } },
    });
  };
  const labelsOf = async (name: string) => (await getOrNone(secrets, NS, name))?.metadata.labels ?? {};

  it('does nothing before tracking has covered a whole period', async () => {
    await runAt('2025-01-31T12:00:00Z');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await labelsOf('auto-token'))[names.invalidSinceLabel], undefined);
  });

  it('labels an unused auto-generated token invalid, and keeps the others as they are', async () => {
    await runAt('2025-03-01T12:00:00Z');
    await waitFor(
      'invalid-since label',
      async () => (await labelsOf('auto-token'))[names.invalidSinceLabel] === '2025-03-01',
    );
    for (const name of ['manual-token', 'mounted-token', 'used-token', 'young-token']) {
      assert.equal((await labelsOf(name))[names.invalidSinceLabel], undefined, name);
    }
  });

  it('keeps an invalid token for another period, then deletes it', async () => {
    await runAt('2025-03-20T12:00:00Z');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(await getOrNone(secrets, NS, 'auto-token'));
    await runAt('2025-04-05T12:00:00Z');
    await waitFor('auto-token deleted', async () => (await getOrNone(secrets, NS, 'auto-token')) === undefined);
    for (const name of ['manual-token', 'mounted-token']) assert.ok(await getOrNone(secrets, NS, name), name);
  });

  it('uses kube names and a one-year default', () => {
    assert.equal(legacyServiceAccountTokenCleaner.name, 'legacy-serviceaccount-token-cleaner-controller');
    assert.deepEqual(legacyServiceAccountTokenCleaner.aliases, ['legacy-service-account-token-cleaner']);
    assert.equal(names.lastUsedLabel, 'orch.io/legacy-token-last-used');
    assert.equal(names.invalidSinceLabel, 'orch.io/legacy-token-invalid-since');
    assert.equal(names.trackingConfigMap, 'orch-apiserver-legacy-service-account-token-tracking');
  });
});
