import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { apiDomain } from '../../src/apis/api-domain.js';
import type { RequestHead } from '../../src/authn/authenticator.js';
import { buildAuthentication } from '../../src/authn/build-authentication.js';
import { silentLogger } from '../../src/util/logger.js';

function head(url: string): RequestHead {
  return {
    method: 'GET',
    url,
    headers: {},
    headerValues: () => [],
    peerCertificate: undefined,
    signal: new AbortController().signal,
  };
}

describe('anonymous requests from the configuration file', () => {
  let dir: string;
  const lifetime = new AbortController();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-anonymous-file-'));
  });
  after(async () => {
    lifetime.abort();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function build(anonymousYaml: string, options: { anonymousDisabledByAuthorizer?: boolean } = {}) {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(
      file,
      `apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\n${anonymousYaml}`,
    );
    return buildAuthentication(
      { authenticationConfigFile: file, ...options },
      {
        domain: apiDomain(),
        logger: silentLogger,
        objects: { get: async () => undefined },
        lifetime: lifetime.signal,
        metrics: new Registry(),
      },
    );
  }

  it('keeps the file’s anonymous section even when AlwaysAllow turned the flag off, as kube-apiserver does', async () => {
    const a = await build('anonymous:\n  enabled: true\n  conditions: [{path: /livez}]\n', {
      anonymousDisabledByAuthorizer: true,
    });
    const livez = await a.authenticator.authenticate(head('/livez?verbose'));
    assert.equal(livez.kind === 'user' && livez.user.name, 'system:anonymous');
    assert.deepEqual(await a.authenticator.authenticate(head('/readyz')), { kind: 'no-opinion' });
  });

  it('turns anonymous requests off when the file says so, and leaves them to the flags without a section', async () => {
    const off = await build('anonymous:\n  enabled: false\n');
    assert.deepEqual(await off.authenticator.authenticate(head('/livez')), { kind: 'no-opinion' });
    const none = await build('jwt: []\n');
    assert.equal((await none.authenticator.authenticate(head('/livez'))).kind, 'user');
    const reset = await build('jwt: []\n', { anonymousDisabledByAuthorizer: true });
    assert.deepEqual(await reset.authenticator.authenticate(head('/livez')), { kind: 'no-opinion' });
  });
});
