import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { goJsonObjectError } from './go-json-error.js';
import { secretResource } from './secret.js';

const { strategy } = secretResource();
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(fields: Record<string, unknown>, annotations?: Record<string, string>): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'default', ...(annotations ? { annotations } : {}) },
    ...fields,
  };
}

function create(obj: ApiObject): string[] {
  strategy.defaults?.(obj);
  strategy.prepareForCreate(obj);
  return strategy.validateCreate(obj).map(formatFieldError);
}

function update(obj: ApiObject, old: ApiObject): string[] {
  obj.metadata.resourceVersion = '2';
  old.metadata.resourceVersion = '1';
  strategy.defaults?.(old);
  strategy.prepareForCreate(old);
  strategy.defaults?.(obj);
  strategy.prepareForUpdate(obj, old);
  return strategy.validateUpdate(obj, old).map(formatFieldError);
}

describe('Secret normalization', () => {
  it('defaults type to Opaque', () => {
    const s = secret({ data: { a: b64('x') } });
    strategy.defaults?.(s);
    strategy.prepareForCreate(s);
    assert.equal(s.type, 'Opaque');
  });
  it('folds stringData into data, base64-encoded, overriding data, and drops it', () => {
    const s = secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', 'c.txt': 'héllo' } });
    strategy.defaults?.(s);
    strategy.prepareForCreate(s);
    assert.deepEqual(s.data, { a: b64('new'), b: b64('keep'), 'c.txt': b64('héllo') });
    assert.equal('stringData' in s, false);
    assert.deepEqual(strategy.validateCreate(s), []);
  });
  it('folds stringData on update too', () => {
    const old = secret({ data: { a: b64('1') } });
    const next = secret({ stringData: { a: '2' } });
    assert.deepEqual(update(next, old), []);
    assert.deepEqual(next.data, { a: b64('2') });
  });
  it('leaves ill-typed stringData for validation', () => {
    assert.deepEqual(create(secret({ stringData: { a: 1 } })), [
      'stringData.a: Invalid value: "integer": stringData.a in body must be of type string: "integer"',
    ]);
  });
});

describe('Secret validation', () => {
  const cases: { name: string; obj: ApiObject; want: string[] }[] = [
    { name: 'valid opaque', obj: secret({ data: { 'tls.crt': b64('x') } }), want: [] },
    {
      name: 'data values must be base64',
      obj: secret({ data: { a: 'not base64' } }),
      want: ['data.a: Invalid value: "not base64": data.a in body must be of type byte: "not base64"'],
    },
    {
      name: 'data keys',
      obj: secret({ data: { 'a b': '' } }),
      want: [
        `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      ],
    },
    {
      name: 'size limit counts decoded bytes',
      obj: secret({ data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } }),
      want: ['data: Too long: may not be more than 1048576 bytes'],
    },
    {
      name: 'service account token needs the service account name annotation',
      obj: secret({ type: 'kubernetes.io/service-account-token' }),
      want: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
    },
    {
      name: 'service account token with the annotation',
      obj: secret({ type: 'kubernetes.io/service-account-token' }, { 'kubernetes.io/service-account.name': 'default' }),
      want: [],
    },
    {
      name: "the domain's service account token type needs the domain's annotation",
      obj: secret({ type: 'orch.io/service-account-token' }, { 'kubernetes.io/service-account.name': 'default' }),
      want: ['metadata.annotations[orch.io/service-account.name]: Required value'],
    },
    {
      name: "the domain's service account token type with its annotation",
      obj: secret({ type: 'orch.io/service-account-token' }, { 'orch.io/service-account.name': 'default' }),
      want: [],
    },
    {
      name: 'dockercfg requires .dockercfg',
      obj: secret({ type: 'kubernetes.io/dockercfg' }),
      want: ['data[.dockercfg]: Required value'],
    },
    {
      name: 'dockercfg must be a JSON object',
      obj: secret({ type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64('[1]') } }),
      want: [
        'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
    },
    {
      name: 'dockerconfigjson must be JSON',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('nupe') } }),
      want: [
        `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'p' in literal null (expecting 'l')`,
      ],
    },
    {
      name: 'valid dockerconfigjson',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }),
      want: [],
    },
    {
      name: 'basic-auth needs username or password',
      obj: secret({ type: 'kubernetes.io/basic-auth', data: { other: '' } }),
      want: ['data[username]: Required value', 'data[password]: Required value'],
    },
    {
      name: 'basic-auth with an empty password',
      obj: secret({ type: 'kubernetes.io/basic-auth', data: { password: '' } }),
      want: [],
    },
    {
      name: 'ssh-auth needs a non-empty private key',
      obj: secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }),
      want: ['data[ssh-privatekey]: Required value'],
    },
    {
      name: 'tls needs tls.crt and tls.key',
      obj: secret({ type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c' } }),
      want: ['data[tls.key]: Required value'],
    },
    {
      name: 'bootstrap tokens have no server-side content rules (as in kube)',
      obj: secret({ type: 'bootstrap.kubernetes.io/token' }),
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(create(c.obj), c.want));
});

describe('Secret update', () => {
  it('type is immutable', () => {
    assert.deepEqual(update(secret({ type: 'kubernetes.io/basic-auth', data: { username: '' } }), secret({})), [
      'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
    ]);
  });
  it('an omitted type defaults to Opaque, so it does not change', () => {
    assert.deepEqual(update(secret({}), secret({ type: 'Opaque' })), []);
  });
  it('immutable secrets keep their data and stay immutable', () => {
    const old = secret({ data: { a: b64('1') }, immutable: true });
    assert.deepEqual(update(secret({ stringData: { a: '2' } }), old), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    const same = secret({ data: { a: b64('1') }, immutable: true });
    assert.deepEqual(update(same, secret({ data: { a: b64('1') }, immutable: true })), []);
  });
});

describe('goJsonObjectError', () => {
  const cases: [string, string | undefined][] = [
    ['{"a":1}', undefined],
    ['null', undefined],
    ['', 'unexpected end of JSON input'],
    ['  {', 'unexpected end of JSON input'],
    ['xyz', "invalid character 'x' looking for beginning of value"],
    ['tru', 'unexpected end of JSON input'],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['"s"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['12', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['true', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
  ];
  for (const [input, want] of cases) it(JSON.stringify(input), () => assert.equal(goJsonObjectError(input), want));
});
