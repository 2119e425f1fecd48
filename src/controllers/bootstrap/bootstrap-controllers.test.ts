import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactVerify } from 'jose';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { type RegistryFixture, registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { adminClient, DOMAIN, getOrNone, manualClock } from '../serviceaccount-token/testing/token-test-support.js';
import { waitFor } from '../testing/controller-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../testing/run-descriptor.js';
import { bootstrapSignerController, CLUSTER_INFO } from './bootstrap-signer.js';
import { detachedSignature } from './detached-jws.js';
import { tokenCleanerController } from './token-cleaner.js';

const signal = new AbortController().signal;
const SYSTEM = DOMAIN.systemNamespace;
const PUBLIC = DOMAIN.publicNamespace;
const TYPE = 'bootstrap.orch.io/token';

function tokenSecret(id: string, secret: string, data: Record<string, string> = {}, o: { type?: string } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}` },
    type: o.type ?? TYPE,
    stringData: { 'token-id': id, 'token-secret': secret, ...data },
  } as ApiObject;
}

/** Verifies a detached JWS of `content` with the HS256 key `<id>.<secret>`; returns its header. */
async function verifyDetached(sig: string, content: string, id: string, secret: string) {
  const [header, payload, signature] = sig.split('.');
  assert.equal(payload, '');
  const full = `${header}.${Buffer.from(content).toString('base64url')}.${signature}`;
  const r = await compactVerify(full, new TextEncoder().encode(`${id}.${secret}`), { algorithms: ['HS256'] });
  return r.protectedHeader;
}

describe('detached JWS', () => {
  it('is header..signature, HS256 with kid, verifiable with <id>.<secret>', async () => {
    const sig = await detachedSignature('hello', 'abcdef', '0123456789abcdef');
    assert.match(sig, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    assert.equal(Buffer.from(sig.split('.')[0] as string, 'base64url').toString(), '{"alg":"HS256","kid":"abcdef"}');
    assert.deepEqual(await verifyDetached(sig, 'hello', 'abcdef', '0123456789abcdef'), { alg: 'HS256', kid: 'abcdef' });
    await assert.rejects(verifyDetached(sig, 'hellO', 'abcdef', '0123456789abcdef'));
  });
});

describe('bootstrap token cleaner and signer', () => {
  const clock = manualClock(new Date('2030-06-01T00:00:00Z'));
  const iso = (offsetMs: number) => new Date(clock.now().getTime() + offsetMs).toISOString().replace('.000Z', 'Z');
  let f: RegistryFixture;
  let running: RunningDescriptors;
  let secrets: ResourceClient;
  let configMaps: ResourceClient;
  const KUBECONFIG =
    'apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://127.0.0.1:6443\n';

  before(async () => {
    f = await registryFixture();
    for (const ns of [SYSTEM, PUBLIC, 'other']) await f.createNamespace(ns);
    secrets = adminClient(f.resources, 'secrets');
    configMaps = adminClient(f.resources, 'configmaps');
    await configMaps.create(
      PUBLIC,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_INFO }, data: { kubeconfig: KUBECONFIG } },
      signal,
    );
    running = runDescriptors(f.resources, [tokenCleanerController, bootstrapSignerController], { clock });
  });
  after(() => running.stop());

  const exists = async (ns: string, name: string) => (await getOrNone(secrets, ns, name)) !== undefined;
  const clusterInfo = async () => (await configMaps.get(PUBLIC, CLUSTER_INFO, signal)).data as Record<string, string>;

  it('is off by default, as kube', () => {
    assert.equal(tokenCleanerController.enabledByDefault, false);
    assert.equal(bootstrapSignerController.enabledByDefault, false);
    assert.deepEqual(
      [
        tokenCleanerController.name,
        tokenCleanerController.aliases,
        bootstrapSignerController.name,
        bootstrapSignerController.aliases,
      ],
      ['token-cleaner-controller', ['tokencleaner'], 'bootstrap-signer-controller', ['bootstrapsigner']],
    );
  });

  it('deletes expired and unreadable-expiration tokens; keeps valid ones and other secrets', async () => {
    await secrets.create(SYSTEM, tokenSecret('expird', '0123456789abcdef', { expiration: iso(-1000) }), signal);
    await secrets.create(SYSTEM, tokenSecret('badexp', '0123456789abcdef', { expiration: 'next week' }), signal);
    await secrets.create(SYSTEM, tokenSecret('forevr', '0123456789abcdef'), signal);
    await secrets.create(SYSTEM, tokenSecret('future', '0123456789abcdef', { expiration: iso(3600_000) }), signal);
    await secrets.create('other', tokenSecret('elsewh', '0123456789abcdef', { expiration: iso(-1000) }), signal);
    await secrets.create(
      SYSTEM,
      tokenSecret('opaque', '0123456789abcdef', { expiration: iso(-1000) }, { type: 'Opaque' }),
      signal,
    );
    await waitFor('expired token deleted', async () => !(await exists(SYSTEM, 'bootstrap-token-expird')));
    await waitFor('unreadable expiration deleted', async () => !(await exists(SYSTEM, 'bootstrap-token-badexp')));
    for (const [ns, name] of [
      [SYSTEM, 'forevr'],
      [SYSTEM, 'future'],
      ['other', 'elsewh'],
      [SYSTEM, 'opaque'],
    ] as const) {
      assert.ok(await exists(ns, `bootstrap-token-${name}`), name);
    }
  });

  it('deletes a token once the clock passes its expiration', async () => {
    await secrets.create(SYSTEM, tokenSecret('soonxx', '0123456789abcdef', { expiration: iso(200) }), signal);
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(await exists(SYSTEM, 'bootstrap-token-soonxx'), 'not expired by the controller clock yet');
    clock.advance(1000);
    await waitFor('token deleted after expiry', async () => !(await exists(SYSTEM, 'bootstrap-token-soonxx')));
  });

  it('signs cluster-info with every valid signing token, verifiably', async () => {
    await secrets.create(
      SYSTEM,
      tokenSecret('signer', 'aaaaaaaaaaaaaaaa', { 'usage-bootstrap-signing': 'true' }),
      signal,
    );
    await secrets.create(
      SYSTEM,
      tokenSecret('second', 'bbbbbbbbbbbbbbbb', { 'usage-bootstrap-signing': 'true', expiration: iso(3600_000) }),
      signal,
    );
    await secrets.create(
      SYSTEM,
      tokenSecret('nosign', 'cccccccccccccccc', { 'usage-bootstrap-signing': 'false' }),
      signal,
    );
    // A token whose name does not match its id is not used.
    await secrets.create(
      SYSTEM,
      {
        ...tokenSecret('mismat', 'dddddddddddddddd', { 'usage-bootstrap-signing': 'true' }),
        stringData: { 'token-id': 'zzzzzz', 'token-secret': 'dddddddddddddddd', 'usage-bootstrap-signing': 'true' },
      } as ApiObject,
      signal,
    );
    const data = await waitFor('two signatures', async () => {
      const d = await clusterInfo();
      return d['jws-kubeconfig-signer'] && d['jws-kubeconfig-second'] ? d : undefined;
    });
    assert.deepEqual(Object.keys(data).sort(), ['jws-kubeconfig-second', 'jws-kubeconfig-signer', 'kubeconfig']);
    assert.deepEqual(
      await verifyDetached(data['jws-kubeconfig-signer'] as string, KUBECONFIG, 'signer', 'aaaaaaaaaaaaaaaa'),
      {
        alg: 'HS256',
        kid: 'signer',
      },
    );
    await verifyDetached(data['jws-kubeconfig-second'] as string, KUBECONFIG, 'second', 'bbbbbbbbbbbbbbbb');
  });

  it('re-signs a changed kubeconfig and drops signatures of deleted and expired tokens', async () => {
    const cm = await configMaps.get(PUBLIC, CLUSTER_INFO, signal);
    const changed = `${KUBECONFIG}# changed\n`;
    await configMaps.update({ ...cm, data: { ...(cm.data as object), kubeconfig: changed } }, signal);
    await waitFor('re-signed', async () => {
      const d = await clusterInfo();
      try {
        await verifyDetached(d['jws-kubeconfig-signer'] as string, changed, 'signer', 'aaaaaaaaaaaaaaaa');
        return true;
      } catch {
        return false;
      }
    });
    await secrets.delete(SYSTEM, 'bootstrap-token-signer', {}, signal);
    await waitFor(
      'signature of the deleted token removed',
      async () => !('jws-kubeconfig-signer' in (await clusterInfo())),
    );
    assert.ok('jws-kubeconfig-second' in (await clusterInfo()));
    // `second` expires by the controllers' clock; the next Secret event makes the signer look again.
    clock.advance(2 * 3600_000);
    await secrets.create(SYSTEM, tokenSecret('nudged', 'eeeeeeeeeeeeeeee'), signal);
    await waitFor(
      'signature of the expired token removed',
      async () => !('jws-kubeconfig-second' in (await clusterInfo())),
    );
    assert.deepEqual(Object.keys(await clusterInfo()), ['kubeconfig']);
  });
});
