// --token-auth-file end to end: users, a bad token, a malformed file, and kubectl --token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { AuthenticationConfigError } from '../../src/authn/authentication-config-error.js';
import type { InProcessServer } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';
import { getAs, startDenyingServer, tempDir, tokenReview, whoAmI } from './authn-fixture.js';

const ALICE = 'c0ffee00-alice-token-0000000000000001';
const ROOT = 'c0ffee00-root-token-00000000000000002';

describe('static token file', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let server: InProcessServer;
  before(async () => {
    files = await tempDir('orch-token-file-');
    const tokenFile = await files.write(
      'tokens.csv',
      `${ALICE},alice,1001,"dev,ops"\n${ROOT},root,0,"system:masters"\n`,
    );
    server = await startDenyingServer({ authentication: { tokenAuthFile: tokenFile } });
  });
  after(async () => {
    await server?.stop();
    await files?.remove();
  });

  it('authenticates a listed token as its user', async () => {
    assert.equal(await whoAmI(server, { token: ALICE }), 'alice');
  });

  it('reports uid and groups in a TokenReview', async () => {
    const status = await tokenReview(server, ALICE);
    assert.equal(status.authenticated, true);
    assert.equal(status.user.username, 'alice');
    assert.equal(status.user.uid, '1001');
    assert.deepEqual(status.user.groups.slice(0, 2), ['dev', 'ops']);
    assert.deepEqual(status.user.extra, undefined);
  });

  it('carries the groups of the file (system:masters passes AlwaysDeny)', async () => {
    assert.equal(await whoAmI(server, { token: ROOT }), '200');
  });

  it('answers an unknown token with a 401 Status', async () => {
    const r = await getAs(server, '/api/v1/namespaces', { token: `${ALICE}x` });
    assert.equal(r.status, 401);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('still accepts client certificates', async () => {
    assert.equal(await whoAmI(server, { cert: server.admin }), '200');
  });

  it('serves kubectl --token', async () => {
    const kubeconfig = await files.write(
      'kubeconfig',
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'orch',
            cluster: {
              server: server.url,
              'certificate-authority-data': Buffer.from(server.admin.ca).toString('base64'),
            },
          },
        ],
        users: [{ name: 'nobody', user: {} }],
        contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'nobody' } }],
        'current-context': 'orch',
      }),
    );
    const ok = await kubectl(kubeconfig, [`--token=${ROOT}`, 'get', 'namespaces', '-o', 'name']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^namespace\/default$/m);
    const denied = await kubectl(kubeconfig, [`--token=${ALICE}`, 'get', 'namespaces']);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /User "alice" cannot list resource "namespaces"/);
    const bad = await kubectl(kubeconfig, ['--token=wrong', 'get', 'namespaces']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /You must be logged in to the server \(Unauthorized\)/);
  });
});

describe('static token file start-up errors', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    files = await tempDir('orch-token-file-bad-');
  });
  after(() => files?.remove());

  it('fails start-up naming the line of a record with too few columns', async () => {
    const tokenFile = await files.write('tokens.csv', `${ALICE},alice,1\n\nsecret-two,bob\n`);
    await assert.rejects(
      startDenyingServer({ dataDir: files.dir, authentication: { tokenAuthFile: tokenFile } }),
      (e: unknown) => {
        assert.ok(e instanceof AuthenticationConfigError);
        assert.equal(
          e.message,
          `token file '${tokenFile}' must have at least 3 columns (token, user name, user uid), found 2 on line 3`,
        );
        assert.ok(!e.message.includes('secret-two'));
        return true;
      },
    );
  });
});
