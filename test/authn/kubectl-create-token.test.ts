import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { waitFor } from '../../src/controllers/testing/controller-fixture.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';

// The real kubectl 1.32 under kube's names: `kubectl create token` posts an
// authentication.k8s.io/v1 TokenRequest, and the token it prints works as `--token`.

describe('kubectl create token (--api-domain=k8s.io)', () => {
  let s: InProcessServer;
  let admin: string;
  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io' });
    admin = s.server.kubeconfigPath as string;
    await waitFor('the default ServiceAccount', async () => {
      return (await s.api.admin('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200;
    });
  });
  after(() => s.stop());

  /** A kubeconfig that authenticates with `token` alone (no client certificate). */
  const tokenKubeconfig = (token: string) => {
    const path = join(s.server.kubeconfigPath as string, '..', 'token.kubeconfig');
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c',
            cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.admin.ca).toString('base64') },
          },
        ],
        users: [{ name: 'u', user: { token } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'c',
      }),
      { mode: 0o600 },
    );
    return path;
  };

  it('issues a token that authenticates as the service account', async () => {
    const created = await kubectl(admin, ['create', 'token', 'default', '-n', 'default']);
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim();
    const claims = decodeJwt(token);
    assert.equal(claims.sub, 'system:serviceaccount:default:default');
    assert.ok('kubernetes.io' in claims, 'the private claim has kube’s name');

    const who = await kubectl(tokenKubeconfig(token), ['auth', 'whoami', '-o', 'json']);
    assert.equal(who.code, 0, who.stderr);
    const info = JSON.parse(who.stdout).status.userInfo;
    assert.equal(info.username, 'system:serviceaccount:default:default');
    assert.deepEqual(info.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.match(info.extra['authentication.kubernetes.io/credential-id'][0], /^JTI=/);

    // Under the default RBAC mode a service account with no bindings is refused, in kube's words.
    const cms = await kubectl(tokenKubeconfig(token), ['get', 'configmaps', '-n', 'default', '-o', 'name']);
    assert.notEqual(cms.code, 0);
    assert.match(
      cms.stderr,
      /configmaps is forbidden: User "system:serviceaccount:default:default" cannot list resource "configmaps" in API group "" in the namespace "default"/,
    );
  });

  it('passes --duration, --audience and a bound Secret', async () => {
    const secret = await kubectl(admin, ['create', 'secret', 'generic', 'holder', '-n', 'default']);
    assert.equal(secret.code, 0, secret.stderr);
    const r = await kubectl(admin, [
      'create',
      'token',
      'default',
      '-n',
      'default',
      '--duration=20m',
      '--audience=vault',
      '--bound-object-kind=Secret',
      '--bound-object-name=holder',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const claims = decodeJwt(r.stdout.trim());
    assert.deepEqual(claims.aud, ['vault']);
    assert.equal((claims.exp as number) - (claims.iat as number), 1200);
    assert.equal((claims['kubernetes.io'] as { secret: { name: string } }).secret.name, 'holder');
  });

  it("reports kube's errors", async () => {
    const short = await kubectl(admin, ['create', 'token', 'default', '-n', 'default', '--duration=1m']);
    assert.notEqual(short.code, 0);
    assert.match(short.stderr, /may not specify a duration less than 10 minutes/);
    const missing = await kubectl(admin, ['create', 'token', 'ghost', '-n', 'default']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /serviceaccounts "ghost" not found/);
  });
});
