import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { ObjectReader } from '../../authn/object-reader.js';
import { LegacyServiceAccountTokenAuthenticator } from '../../authn/service-account/legacy-token-authenticator.js';
import { parsePublicKeys } from '../../authn/service-account/service-account-keys.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { type RegistryFixture, registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../../util/logger.js';
import type { ControllerContext } from '../controller-descriptor.js';
import { waitFor } from '../testing/controller-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../testing/run-descriptor.js';
import { serviceAccountTokenController, tokenSecretNames } from './serviceaccount-token-controller.js';
import { adminClient, DOMAIN, getOrNone, type TestFiles, text, writeTestFiles } from './testing/token-test-support.js';

const signal = new AbortController().signal;
const names = tokenSecretNames(DOMAIN);

describe('serviceaccount-token controller', () => {
  let f: RegistryFixture;
  let files: TestFiles;
  let running: RunningDescriptors;
  let secrets: ResourceClient;
  let accounts: ResourceClient;

  before(async () => {
    f = await registryFixture();
    files = await writeTestFiles();
    await f.createNamespace('ns1');
    secrets = adminClient(f.resources, 'secrets');
    accounts = adminClient(f.resources, 'serviceaccounts');
    running = runDescriptors(f.resources, [serviceAccountTokenController], {
      config: {
        SAController: { ServiceAccountKeyFile: files.keyFile, RootCAFile: files.caFile, ConcurrentSATokenSyncs: 3 },
      },
    });
  });
  after(async () => {
    await running.stop();
    await files.remove();
  });

  const createAccount = (name: string) =>
    accounts.create('ns1', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }, signal);
  const createTokenSecret = (name: string, account: string, extra: Record<string, string> = {}) =>
    secrets.create(
      'ns1',
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, annotations: { [names.nameAnnotation]: account, ...extra } },
        type: names.type,
      },
      signal,
    );
  const filled = (name: string) =>
    waitFor(`token in ${name}`, async () => {
      const s = await getOrNone(secrets, 'ns1', name);
      return s && text(s, 'token') ? s : undefined;
    });
  const gone = (name: string) =>
    waitFor(`${name} deleted`, async () => (await getOrNone(secrets, 'ns1', name)) === undefined);

  /** Reads objects for the authenticator straight from the registries. */
  const reader: ObjectReader = {
    get: (ref, namespace, name) => getOrNone(ref.resource === 'secrets' ? secrets : accounts, namespace, name),
  };

  it('fills token, ca.crt, namespace and the uid annotation; the API server authenticator accepts the token', async () => {
    const sa = await createAccount('builder');
    await createTokenSecret('builder-token', 'builder');
    const secret = await filled('builder-token');
    assert.equal(text(secret, 'ca.crt'), files.caPem);
    assert.equal(text(secret, 'namespace'), 'ns1');
    assert.equal(secret.metadata.annotations?.[names.uidAnnotation], sa.metadata.uid);
    const token = text(secret, 'token') as string;
    const claims = decodeJwt(token);
    assert.deepEqual(claims, {
      iss: 'orch/serviceaccount',
      'orch.io/serviceaccount/namespace': 'ns1',
      'orch.io/serviceaccount/secret.name': 'builder-token',
      'orch.io/serviceaccount/service-account.name': 'builder',
      'orch.io/serviceaccount/service-account.uid': sa.metadata.uid,
      sub: 'system:serviceaccount:ns1:builder',
    });
    const [key] = parsePublicKeys(files.keyPem);
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'ES256', kid: key?.kid });
    const authn = new LegacyServiceAccountTokenAuthenticator({
      keys: [key!],
      implicitAudiences: ['https://orch.test'],
      lookup: true,
      objects: reader,
      domain: DOMAIN,
    });
    const r = await authn.authenticateToken(token, { audiences: [], signal });
    assert.deepEqual(r, {
      kind: 'user',
      user: {
        name: 'system:serviceaccount:ns1:builder',
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1'],
      },
      audiences: ['https://orch.test'],
    });
  });

  it('puts the CA back when ca.crt changes, and keeps an existing token', async () => {
    const before = await filled('builder-token');
    const changed = structuredClone(before);
    (changed.data as Record<string, string>)['ca.crt'] = Buffer.from('other').toString('base64');
    await secrets.update(changed, signal);
    await waitFor('ca.crt restored', async () => {
      const s = await getOrNone(secrets, 'ns1', 'builder-token');
      return text(s, 'ca.crt') === files.caPem;
    });
    const after = await getOrNone(secrets, 'ns1', 'builder-token');
    assert.equal(text(after, 'token'), text(before, 'token'));
  });

  it('fills many secrets with several workers', async () => {
    await createAccount('many');
    const list = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    await Promise.all(list.map((n) => createTokenSecret(n, 'many')));
    for (const n of list) {
      const s = await filled(n);
      assert.equal(decodeJwt(text(s, 'token') as string)['orch.io/serviceaccount/secret.name'], n);
    }
  });

  it('deletes token secrets of a missing account or of an account with another uid', async () => {
    await createTokenSecret('orphan-token', 'nobody');
    await gone('orphan-token');
    await createAccount('other');
    await createTokenSecret('stale-token', 'other', { [names.uidAnnotation]: 'not-the-uid' });
    await gone('stale-token');
    assert.ok(await getOrNone(accounts, 'ns1', 'other'));
  });

  it('deletes the token secrets of a deleted account', async () => {
    await createAccount('temp');
    await createTokenSecret('temp-token', 'temp');
    await filled('temp-token');
    await accounts.delete('ns1', 'temp', {}, signal);
    await gone('temp-token');
  });

  it("removes a deleted secret from its account's secrets", async () => {
    const sa = await createAccount('listed');
    await createTokenSecret('listed-token', 'listed');
    await filled('listed-token');
    await accounts.update({ ...sa, secrets: [{ name: 'listed-token' }, { name: 'kept' }] }, signal);
    await secrets.delete('ns1', 'listed-token', {}, signal);
    await waitFor('reference removed', async () => {
      const now = await getOrNone(accounts, 'ns1', 'listed');
      return JSON.stringify(now?.secrets) === JSON.stringify([{ name: 'kept' }]);
    });
  });

  it('does not start without ServiceAccountKeyFile, and fails on an unreadable one', async () => {
    const ctx = (config: Record<string, unknown>) =>
      ({ config, logger: silentLogger, domain: DOMAIN, signal }) as unknown as ControllerContext;
    await serviceAccountTokenController.run(ctx({}));
    await assert.rejects(
      serviceAccountTokenController.run(ctx({ ServiceAccountKeyFile: `${files.keyFile}.missing` })),
      /SAController.ServiceAccountKeyFile: cannot read .*sa\.key\.missing \(ENOENT\)/,
    );
    await assert.rejects(
      serviceAccountTokenController.run(ctx({ ServiceAccountKeyFile: files.caFile })),
      /does not contain a valid RSA or ECDSA private key/,
    );
  });
});
