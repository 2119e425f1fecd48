import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { apiDomain } from '../../apis/api-domain.js';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { internalRequestContext } from '../../apis/request/request-context.js';
import { manualClock, newSigningKey, object, tableObjectReader } from './testing/fixtures.js';
import { tokenRequestCreator } from './token-request.js';
import { ServiceAccountTokenSigner } from './token-signer.js';

const domain = apiDomain('k8s.io');
const T0 = new Date('2026-02-01T08:00:00.400Z');
const NOW = Math.floor(T0.getTime() / 1000);
const API = ['https://issuer'];

function setup(o: { max?: number; extend?: boolean } = {}) {
  const clock = manualClock(T0);
  const objects = tableObjectReader();
  objects.put('serviceaccounts', object('ServiceAccount', 'ns', 'sa', 'sa-uid'));
  objects.put('secrets', object('Secret', 'ns', 's', 'secret-uid'));
  objects.put('pods', object('Pod', 'ns', 'p', 'pod-uid', { spec: { serviceAccountName: 'sa', nodeName: 'n1' } }));
  objects.put('pods', object('Pod', 'ns', 'other-pod', 'op', { spec: { serviceAccountName: 'other' } }));
  const signer = new ServiceAccountTokenSigner({
    issuer: 'https://issuer',
    key: newSigningKey(),
    claimName: domain.serviceAccountClaim,
    clock,
    newId: () => 'jti',
  });
  const creator = tokenRequestCreator({
    domain,
    signer,
    objects,
    apiAudiences: API,
    maxExpirationSeconds: o.max ?? 0,
    extendExpiration: o.extend ?? true,
    clock,
  });
  const warnings: string[] = [];
  const ctx = internalRequestContext({
    user: { name: 'admin', groups: [] },
    signal: new AbortController().signal,
    verb: 'create',
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    namespace: 'ns',
    name: 'sa',
    subresource: 'token',
    warnings: { add: (w) => warnings.push(w) },
  });
  const create = (spec: object = {}, meta: object = {}, name = 'sa', namespace = 'ns') =>
    creator.create(
      ctx,
      { namespace, name },
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: meta, spec } as ApiObject,
      { dryRun: false },
    );
  return { create, warnings, objects };
}

async function failure(p: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, reason: e.reason, message: e.message };
    throw e;
  }
  assert.fail('expected a StatusError');
}

describe('TokenRequest', () => {
  it('defaults the audiences and lifetime and answers with the token and its expiry', async () => {
    const s = setup();
    const out = (await s.create()) as ApiObject & { spec: unknown; status: { token: string } };
    assert.deepEqual(
      { ...out, status: { ...out.status, token: typeof out.status.token } },
      {
        kind: 'TokenRequest',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { name: 'sa', namespace: 'ns', creationTimestamp: '2026-02-01T08:00:00Z' },
        spec: { audiences: API, expirationSeconds: 3600, boundObjectRef: null },
        status: { token: 'string', expirationTimestamp: '2026-02-01T09:00:00Z' },
      },
    );
    const claims = decodeJwt(out.status.token);
    assert.equal(claims.exp, NOW + 3600);
    assert.deepEqual(claims.aud, API);
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } });
  });

  const invalid: { name: string; spec?: object; meta?: object; want: { code: number; message: string } }[] = [
    {
      name: 'a lifetime under 10 minutes',
      spec: { expirationSeconds: 599 },
      want: {
        code: 422,
        message:
          'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      },
    },
    {
      name: 'a lifetime over 2^32 seconds',
      spec: { expirationSeconds: 2 ** 32 + 1 },
      want: {
        code: 422,
        message:
          'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      },
    },
    {
      name: 'another name in the body',
      meta: { name: 'default' },
      want: {
        code: 422,
        message:
          'TokenRequest.authentication.k8s.io "sa" is invalid: metadata.name: Invalid value: "default": must match the service account name if specified',
      },
    },
    {
      name: 'another namespace in the body',
      meta: { namespace: 'default' },
      want: {
        code: 422,
        message:
          'TokenRequest.authentication.k8s.io "sa" is invalid: metadata.namespace: Invalid value: "default": must match the service account namespace if specified',
      },
    },
    {
      name: 'a missing bound secret',
      spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } },
      want: { code: 404, message: 'secrets "nope" not found' },
    },
    {
      name: 'a missing bound pod',
      spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nope' } },
      want: { code: 404, message: 'pods "nope" not found' },
    },
    {
      name: 'a pod of another service account',
      spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other-pod' } },
      want: {
        code: 400,
        message: 'cannot bind token for serviceaccount "sa" to pod running with different serviceaccount name.',
      },
    },
    {
      name: 'a kind tokens cannot be bound to',
      spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } },
      want: { code: 400, message: 'cannot bind token to object of type /v1, Kind=ConfigMap' },
    },
    {
      name: 'a bound object uid that is not the live one',
      spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'old' } },
      want: {
        code: 409,
        message:
          'Operation cannot be fulfilled on Secret "s": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
      },
    },
    {
      name: 'an expirationSeconds that is not an integer',
      spec: { expirationSeconds: '600' },
      want: {
        code: 400,
        message:
          'json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
      },
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, async () => {
      const f = await failure(setup().create(c.spec, c.meta));
      assert.deepEqual({ code: f.code, message: f.message }, c.want);
    });
  }

  it('answers 404 for a missing service account', async () => {
    const f = await failure(setup().create({}, {}, 'ghost'));
    assert.deepEqual(f, { code: 404, reason: 'NotFound', message: 'serviceaccounts "ghost" not found' });
  });

  it('binds a token to a Secret, keeping the reference in the answer', async () => {
    const ref = { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'secret-uid' };
    const out = (await setup().create({ boundObjectRef: ref, audiences: ['vault'] })) as ApiObject & {
      spec: { boundObjectRef: object; audiences: string[] };
      status: { token: string };
    };
    assert.deepEqual(out.spec.boundObjectRef, ref);
    const claims = decodeJwt(out.status.token);
    assert.deepEqual(claims.aud, ['vault']);
    assert.deepEqual(claims['kubernetes.io'], {
      namespace: 'ns',
      secret: { name: 's', uid: 'secret-uid' },
      serviceaccount: { name: 'sa', uid: 'sa-uid' },
    });
  });

  it('shortens a lifetime over the maximum, with a warning', async () => {
    const s = setup({ max: 7200 });
    const out = (await s.create({ expirationSeconds: 86400 })) as ApiObject & {
      spec: { expirationSeconds: number };
      status: { token: string; expirationTimestamp: string };
    };
    assert.equal(out.spec.expirationSeconds, 7200);
    assert.equal(out.status.expirationTimestamp, '2026-02-01T10:00:00Z');
    assert.equal(decodeJwt(out.status.token).exp, NOW + 7200);
    assert.deepEqual(s.warnings, ['requested expiration of 86400 seconds shortened to 7200 seconds']);
  });

  it('extends a pod-bound 3607 s token for the API audiences to a year, warning after 3607 s', async () => {
    for (const extend of [true, false]) {
      const s = setup({ extend });
      s.objects.put('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'node-uid' } });
      const out = (await s.create({
        expirationSeconds: 3607,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' },
      })) as ApiObject & { status: { token: string; expirationTimestamp: string } };
      assert.equal(out.status.expirationTimestamp, '2026-02-01T09:00:07Z');
      const claims = decodeJwt(out.status.token);
      const priv = claims['kubernetes.io'] as Record<string, unknown>;
      assert.deepEqual(priv.pod, { name: 'p', uid: 'pod-uid' });
      assert.deepEqual(priv.node, { name: 'n1', uid: 'node-uid' });
      assert.equal(claims.exp, NOW + (extend ? 365 * 24 * 3600 : 3607));
      assert.equal(priv.warnafter, extend ? NOW + 3607 : undefined);
    }
  });
});
