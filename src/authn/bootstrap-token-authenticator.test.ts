import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import {
  bootstrapTokenAuthenticator,
  bootstrapTokenExpired,
  bootstrapTokenGroups,
} from './bootstrap-token-authenticator.js';
import type { ObjectReader } from './object-reader.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const clock = { now: () => NOW };
const ctx = { audiences: [], signal: new AbortController().signal };

const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(
  data: Record<string, string>,
  over: { name?: string; namespace?: string; type?: string; deleting?: boolean } = {},
): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: over.name ?? 'bootstrap-token-abcdef',
      namespace: over.namespace ?? ORCH_DOMAIN.systemNamespace,
      ...(over.deleting ? { deletionTimestamp: '2025-12-31T00:00:00Z' } : {}),
    },
    type: over.type ?? ORCH_DOMAIN.key('bootstrap', 'token'),
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/** Objects by `<namespace>/<name>` of the secrets resource. */
function reader(objects: ApiObject[]): ObjectReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async get(ref, namespace, name) {
      reads.push(`${ref.group}/${ref.version}/${ref.resource} ${namespace}/${name}`);
      return objects.find((o) => o.metadata.namespace === namespace && o.metadata.name === name);
    },
  };
}

const GOOD = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };
const TOKEN = 'abcdef.0123456789abcdef';

describe('bootstrapTokenAuthenticator', () => {
  const cases: { name: string; token?: string; secrets: ApiObject[]; want: string | undefined; groups?: string[] }[] = [
    {
      name: 'a valid token',
      secrets: [secret(GOOD)],
      want: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers'],
    },
    {
      name: 'extra groups, sorted and deduplicated',
      secrets: [
        secret({
          ...GOOD,
          'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a-b:c,system:bootstrappers:worker',
        }),
      ],
      want: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:a-b:c', 'system:bootstrappers:worker'],
    },
    {
      name: 'a future expiration',
      secrets: [secret({ ...GOOD, expiration: '2026-01-01T00:00:01Z' })],
      want: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers'],
    },
    { name: 'a malformed token', token: 'abcdef.0123456789abcde', secrets: [secret(GOOD)], want: undefined },
    { name: 'upper-case characters', token: 'ABCDEF.0123456789abcdef', secrets: [secret(GOOD)], want: undefined },
    { name: 'no secret', secrets: [], want: undefined },
    { name: 'a wrong secret part', token: 'abcdef.0123456789abcdee', secrets: [secret(GOOD)], want: undefined },
    { name: 'a secret in another namespace', secrets: [secret(GOOD, { namespace: 'default' })], want: undefined },
    { name: 'the wrong secret type', secrets: [secret(GOOD, { type: 'Opaque' })], want: undefined },
    {
      name: 'the other profile’s secret type',
      secrets: [secret(GOOD, { type: apiDomain('k8s.io').key('bootstrap', 'token') })],
      want: undefined,
    },
    { name: 'a secret being deleted', secrets: [secret(GOOD, { deleting: true })], want: undefined },
    { name: 'a mismatched token-id', secrets: [secret({ ...GOOD, 'token-id': 'zzzzzz' })], want: undefined },
    { name: 'an expired token', secrets: [secret({ ...GOOD, expiration: '2025-12-31T23:59:59Z' })], want: undefined },
    {
      name: 'an expiration of exactly now',
      secrets: [secret({ ...GOOD, expiration: '2026-01-01T00:00:00Z' })],
      want: undefined,
    },
    { name: 'an unreadable expiration', secrets: [secret({ ...GOOD, expiration: 'tomorrow' })], want: undefined },
    {
      name: 'usage not true',
      secrets: [secret({ ...GOOD, 'usage-bootstrap-authentication': 'false' })],
      want: undefined,
    },
    {
      name: 'usage missing',
      secrets: [secret({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' })],
      want: undefined,
    },
    {
      name: 'a bad extra group',
      secrets: [secret({ ...GOOD, 'auth-extra-groups': 'system:masters' })],
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want ?? 'no-opinion'}`, async () => {
      const authn = bootstrapTokenAuthenticator({ domain: ORCH_DOMAIN, objects: reader(c.secrets), clock });
      const r = await authn.authenticateToken(c.token ?? TOKEN, ctx);
      if (c.want === undefined) assert.deepEqual(r, { kind: 'no-opinion' });
      else assert.deepEqual(r, { kind: 'user', user: { name: c.want, groups: c.groups } });
    });
  }

  it('reads core v1 secrets in the system namespace of its domain', async () => {
    const objects = reader([]);
    const kube = apiDomain('k8s.io');
    await bootstrapTokenAuthenticator({ domain: kube, objects, clock }).authenticateToken(TOKEN, ctx);
    assert.deepEqual(objects.reads, [`/v1/secrets ${kube.systemNamespace}/bootstrap-token-abcdef`]);
  });

  it('does not read anything for a token of another form', async () => {
    const objects = reader([]);
    await bootstrapTokenAuthenticator({ domain: ORCH_DOMAIN, objects, clock }).authenticateToken('not-a-token', ctx);
    assert.deepEqual(objects.reads, []);
  });

  it('is an error when the secret cannot be read', async () => {
    const failing: ObjectReader = {
      async get() {
        throw new Error('cache not synced');
      },
    };
    const r = await bootstrapTokenAuthenticator({ domain: ORCH_DOMAIN, objects: failing, clock }).authenticateToken(
      TOKEN,
      ctx,
    );
    assert.deepEqual(r, { kind: 'error', message: 'reading bootstrap token secret: cache not synced' });
  });
});

describe('bootstrapTokenGroups', () => {
  const cases: { input: string; want: string[] | string }[] = [
    { input: '', want: ['system:bootstrappers'] },
    { input: 'system:bootstrappers:x', want: ['system:bootstrappers', 'system:bootstrappers:x'] },
    {
      input: 'system:bootstrappers:',
      want: 'bootstrap group "system:bootstrappers:" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)',
    },
    {
      input: 'system:bootstrappers:x-',
      want: 'bootstrap group "system:bootstrappers:x-" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)',
    },
    {
      input: 'system:bootstrappers:X',
      want: 'bootstrap group "system:bootstrappers:X" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)',
    },
    {
      input: `system:bootstrappers:${'a'.repeat(256)}`,
      want: ['system:bootstrappers', `system:bootstrappers:${'a'.repeat(256)}`],
    },
    {
      input: `system:bootstrappers:${'a'.repeat(257)}`,
      want: `bootstrap group "system:bootstrappers:${'a'.repeat(257)}" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)`,
    },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.input.slice(0, 40)), () => {
      const got = bootstrapTokenGroups(c.input);
      assert.deepEqual(Array.isArray(got) ? got : got.error, c.want);
    });
  }
});

describe('bootstrapTokenExpired', () => {
  const cases: { expiration: string; want: boolean }[] = [
    { expiration: '', want: false },
    { expiration: '2026-01-01T00:00:01Z', want: false },
    { expiration: '2026-01-01T01:00:00+02:00', want: true },
    { expiration: '2026-01-01T00:30:00-01:00', want: false },
    { expiration: '2026-01-01T00:00:00.5Z', want: false },
    { expiration: '2025-12-31T23:59:59Z', want: true },
    { expiration: '2026-01-02', want: true },
    { expiration: 'garbage', want: true },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.expiration)} → ${c.want}`, () => {
      assert.equal(bootstrapTokenExpired(c.expiration, NOW), c.want);
    });
  }
});
