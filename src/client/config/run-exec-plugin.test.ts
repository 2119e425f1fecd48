import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ExecConfig } from './client-config-file.js';
import { decodeExecCredential, ExecPluginError, execCredentialRequest, interactiveFor } from './run-exec-plugin.js';

const V1 = 'client.authentication.example.io/v1';
const exec = (o: Partial<ExecConfig> = {}): ExecConfig => ({
  command: 'p',
  args: [],
  env: [],
  apiVersion: V1,
  provideClusterInfo: false,
  ...o,
});
const answer = (status: unknown, apiVersion = V1, kind = 'ExecCredential') =>
  JSON.stringify({ apiVersion, kind, status });

describe('interactiveFor', () => {
  const cases: { mode?: ExecConfig['interactiveMode']; tty: boolean; want: boolean | RegExp }[] = [
    { mode: 'Never', tty: true, want: false },
    { mode: 'Never', tty: false, want: false },
    { mode: 'IfAvailable', tty: true, want: true },
    { mode: 'IfAvailable', tty: false, want: false },
    { mode: undefined, tty: true, want: true },
    { mode: 'Always', tty: true, want: true },
    { mode: 'Always', tty: false, want: /cannot support interactive mode: standard input is not a terminal/ },
  ];
  for (const c of cases) {
    it(`${c.mode ?? '(unset)'} with${c.tty ? '' : 'out'} a terminal`, () => {
      if (c.want instanceof RegExp)
        assert.throws(() => interactiveFor(exec({ interactiveMode: c.mode }), c.tty), c.want);
      else assert.equal(interactiveFor(exec({ interactiveMode: c.mode }), c.tty), c.want);
    });
  }
});

describe('execCredentialRequest', () => {
  const cluster = { server: 'https://s:1', certificateAuthorityData: 'CA', config: { a: 1 } };
  it('holds only spec.interactive without provideClusterInfo', () => {
    assert.deepEqual(execCredentialRequest(exec(), cluster, false), {
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: { interactive: false },
    });
  });
  it('adds the cluster, its CA base64 and its extension as config', () => {
    assert.deepEqual(execCredentialRequest(exec({ provideClusterInfo: true }), cluster, true), {
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: {
        interactive: true,
        cluster: { server: 'https://s:1', 'certificate-authority-data': 'Q0E=', config: { a: 1 } },
      },
    });
  });
});

describe('decodeExecCredential', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const ok: { name: string; out: string; want: object }[] = [
    { name: 'a token', out: answer({ token: 'T' }), want: { token: 'T' } },
    {
      name: 'a token with expiry',
      out: answer({ token: 'T', expirationTimestamp: '2030-01-01T00:00:00Z' }),
      want: { token: 'T', expiresAt: Date.parse('2030-01-01T00:00:00Z') },
    },
  ];
  for (const c of ok) {
    it(`accepts ${c.name}`, () => {
      const r = decodeExecCredential(V1, c.out);
      assert.deepEqual(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)), c.want);
    });
  }
  const bad: { name: string; out: string; message: RegExp }[] = [
    { name: 'not JSON', out: 'token=secret-value', message: /^decoding stdout: / },
    {
      name: 'no kind',
      out: JSON.stringify({ apiVersion: V1, status: { token: 'secret-value' } }),
      message: /version\/kind/,
    },
    {
      name: 'another version',
      out: answer({ token: 'secret-value' }, 'client.authentication.example.io/v1beta1'),
      message: /configured to use API version .*\/v1, plugin returned version .*\/v1beta1/,
    },
    {
      name: 'no status',
      out: JSON.stringify({ apiVersion: V1, kind: 'ExecCredential' }),
      message: /didn't return a status field/,
    },
    { name: 'empty status', out: answer({}), message: /didn't return a token or cert\/key pair/ },
    { name: 'a key alone', out: answer({ clientKeyData: keyPem }), message: /only certificate or key, not both/ },
    {
      name: 'garbage certificate',
      out: answer({ clientCertificateData: 'secret-value', clientKeyData: keyPem }),
      message: /failed parsing client key\/certificate/,
    },
    {
      name: 'a bad expiry',
      out: answer({ token: 'secret-value', expirationTimestamp: 'tomorrow' }),
      message: /expirationTimestamp "tomorrow" is not RFC 3339/,
    },
  ];
  for (const c of bad) {
    it(`refuses ${c.name} without quoting the credential`, () => {
      assert.throws(
        () => decodeExecCredential(V1, c.out),
        (e: unknown) => {
          assert.ok(e instanceof ExecPluginError);
          assert.match(e.message, c.message);
          assert.doesNotMatch(e.message, /secret-value|PRIVATE KEY/);
          return true;
        },
      );
    });
  }
});
