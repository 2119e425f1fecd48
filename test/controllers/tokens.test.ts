import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compactVerify, decodeJwt } from 'jose';
import { type ApiDomainName, apiDomain } from '../../src/apis/api-domain.js';
import { bootstrapSignerController } from '../../src/controllers/bootstrap/bootstrap-signer.js';
import { tokenCleanerController } from '../../src/controllers/bootstrap/token-cleaner.js';
import { legacyServiceAccountTokenCleaner } from '../../src/controllers/legacy-token-cleaner/legacy-token-cleaner.js';
import { rootCaCertificatePublisher } from '../../src/controllers/root-ca-publisher/root-ca-publisher.js';
import { serviceAccountTokenController } from '../../src/controllers/serviceaccount-token/serviceaccount-token-controller.js';
import { waitFor } from '../../src/controllers/testing/controller-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../../src/controllers/testing/run-descriptor.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { request } from '../support/http-client.js';

// The token and certificate controllers against a real server (RBAC, bootstrap token
// authentication, a configured service-account key), in both domain profiles: a legacy token
// Secret created through the API gets a token the server accepts, every namespace gets the root
// CA ConfigMap, cluster-info is signed verifiably, and expired bootstrap tokens disappear.

for (const name of ['orch.io', 'k8s.io'] as ApiDomainName[]) {
  const d = apiDomain(name);
  const authnGroup = `${d.group('authentication')}/v1`;
  const rootCa = d.componentName('root-ca.crt');

  describe(`token controllers over a real server (${name})`, () => {
    let s: InProcessServer;
    let dir: string;
    let running: RunningDescriptors;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'orch-token-controllers-'));
      const keyFile = join(dir, 'sa.key');
      await writeFile(
        keyFile,
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }),
      );
      s = await startInProcess({
        apiDomain: name,
        dataDir: join(dir, 'data'),
        authorizationModes: ['RBAC'],
        authentication: {
          serviceAccountSigningKeyFile: keyFile,
          serviceAccountKeyFiles: [keyFile],
          enableBootstrapTokenAuth: true,
        },
      });
      const caFile = join(dir, 'ca.crt');
      await writeFile(caFile, s.admin.ca);
      running = runDescriptors(
        s.server.resources,
        [
          serviceAccountTokenController,
          rootCaCertificatePublisher,
          legacyServiceAccountTokenCleaner,
          tokenCleanerController,
          bootstrapSignerController,
        ],
        { domain: d, config: { SAController: { ServiceAccountKeyFile: keyFile, RootCAFile: caFile } } },
      );
    });
    after(async () => {
      await running?.stop();
      await s?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    const get = async (path: string) => {
      const r = await s.api.admin('GET', path);
      return r.status === 200 ? r.json() : undefined;
    };
    const create = async (path: string, body: object) => {
      const r = await s.api.admin('POST', path, { body });
      assert.equal(r.status, 201, r.text);
      return r.json();
    };
    const whoAmI = async (token: string) => {
      const r = await request(s.url, `/apis/${authnGroup}/selfsubjectreviews`, {
        method: 'POST',
        ca: s.admin.ca,
        as: 'anonymous',
        headers: { authorization: `Bearer ${token}` },
        body: { apiVersion: authnGroup, kind: 'SelfSubjectReview' },
      });
      return r.status === 201 ? r.json().status.userInfo : r.status;
    };
    const text = (obj: { data?: Record<string, string> }, key: string) =>
      obj.data?.[key] === undefined ? undefined : Buffer.from(obj.data[key], 'base64').toString('utf8');

    it('fills a legacy token Secret created through the API; the server accepts the token until it is marked invalid', async () => {
      const sa = await create('/api/v1/namespaces/default/serviceaccounts', {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'robot' },
      });
      await create('/api/v1/namespaces/default/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'robot-token', annotations: { [d.key('', 'service-account.name')]: 'robot' } },
        type: d.key('', 'service-account-token'),
      });
      const secret = await waitFor('token filled', async () => {
        const got = await get('/api/v1/namespaces/default/secrets/robot-token');
        return got?.data?.token ? got : undefined;
      });
      assert.equal(text(secret, 'ca.crt'), s.admin.ca);
      assert.equal(text(secret, 'namespace'), 'default');
      assert.equal(secret.metadata.annotations[d.key('', 'service-account.uid')], sa.metadata.uid);
      const token = text(secret, 'token') as string;
      assert.equal(decodeJwt(token).iss, d.legacyServiceAccountIssuer);
      assert.equal(decodeJwt(token)[`${d.serviceAccountClaim}/serviceaccount/secret.name`], 'robot-token');
      const user = await waitFor('token accepted', async () => {
        const u = await whoAmI(token);
        return typeof u === 'object' ? u : undefined;
      });
      assert.deepEqual(user, {
        username: 'system:serviceaccount:default:robot',
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      });
      // The server records the day of use, and refuses the token once the cleaner's label says it is invalid.
      const today = new Date().toISOString().slice(0, 10);
      const used = await get('/api/v1/namespaces/default/secrets/robot-token');
      assert.equal(used.metadata.labels[d.key('', 'legacy-token-last-used')], today);
      const marked = await s.api.admin('PATCH', '/api/v1/namespaces/default/secrets/robot-token', {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { labels: { [d.key('', 'legacy-token-invalid-since')]: today } } },
      });
      assert.equal(marked.status, 200, marked.text);
      // A successful authentication is cached for a few seconds, as kube-apiserver caches it.
      await waitFor('token refused', async () => (await whoAmI(token)) === 401, 30_000);
    });

    it('records since when legacy token use is tracked', async () => {
      const path = `/api/v1/namespaces/${d.systemNamespace}/configmaps/${d.componentName('apiserver-legacy-service-account-token-tracking')}`;
      const cm = await waitFor('tracking ConfigMap', () => get(path));
      assert.deepEqual(cm.data, { since: new Date().toISOString().slice(0, 10) });
    });

    it(`publishes ${rootCa} with the server's CA in every namespace, new ones too`, async () => {
      await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } });
      for (const ns of ['default', d.systemNamespace, 'fresh']) {
        const cm = await waitFor(`${rootCa} in ${ns}`, () => get(`/api/v1/namespaces/${ns}/configmaps/${rootCa}`));
        assert.deepEqual(cm.data, { 'ca.crt': s.admin.ca });
        assert.match(cm.metadata.annotations[d.key('', 'description')], /^Contains a CA bundle/);
      }
    });

    it('signs cluster-info with a signing bootstrap token, verifiably with <id>.<secret>', async () => {
      const kubeconfig = [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: ""',
        '  cluster:',
        `    certificate-authority-data: ${Buffer.from(s.admin.ca).toString('base64')}`,
        `    server: ${s.url}`,
        '',
      ].join('\n');
      await create(`/api/v1/namespaces/${d.publicNamespace}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cluster-info' },
        data: { kubeconfig },
      });
      await create(`/api/v1/namespaces/${d.systemNamespace}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bootstrap-token-abcdef' },
        type: d.key('bootstrap', 'token'),
        stringData: {
          'token-id': 'abcdef',
          'token-secret': '0123456789abcdef',
          'usage-bootstrap-signing': 'true',
          'usage-bootstrap-authentication': 'true',
        },
      });
      const path = `/api/v1/namespaces/${d.publicNamespace}/configmaps/cluster-info`;
      const cm = await waitFor('signature', async () => {
        const got = await get(path);
        return got?.data?.['jws-kubeconfig-abcdef'] ? got : undefined;
      });
      const [header, payload, signature] = (cm.data['jws-kubeconfig-abcdef'] as string).split('.');
      assert.equal(payload, '');
      const verified = await compactVerify(
        `${header}.${Buffer.from(kubeconfig).toString('base64url')}.${signature}`,
        new TextEncoder().encode('abcdef.0123456789abcdef'),
        { algorithms: ['HS256'] },
      );
      assert.deepEqual(verified.protectedHeader, { alg: 'HS256', kid: 'abcdef' });
      assert.equal(new TextDecoder().decode(verified.payload), kubeconfig);
      // The same token authenticates (bootstrap token authentication is on).
      assert.equal((await whoAmI('abcdef.0123456789abcdef')).username, 'system:bootstrap:abcdef');
      // Its signature goes with it.
      const del = await s.api.admin('DELETE', `/api/v1/namespaces/${d.systemNamespace}/secrets/bootstrap-token-abcdef`);
      assert.equal(del.status, 200, del.text);
      await waitFor('signature removed', async () => !('jws-kubeconfig-abcdef' in ((await get(path))?.data ?? {})));
    });

    it('removes an expired bootstrap token and keeps a valid one', async () => {
      const token = (id: string, expiration: string) =>
        create(`/api/v1/namespaces/${d.systemNamespace}/secrets`, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `bootstrap-token-${id}` },
          type: d.key('bootstrap', 'token'),
          stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', expiration },
        });
      await token('expird', '2020-01-01T00:00:00Z');
      await token('valid0', new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'));
      const path = (id: string) => `/api/v1/namespaces/${d.systemNamespace}/secrets/bootstrap-token-${id}`;
      await waitFor('expired token removed', async () => (await s.api.admin('GET', path('expird'))).status === 404);
      assert.equal((await s.api.admin('GET', path('valid0'))).status, 200);
    });
  });
}
