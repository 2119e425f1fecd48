import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../api-domain.js';
import type { ObjectMeta } from '../object.js';
import { type FieldError, formatFieldError } from './field-error.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from './name-validation.js';
import {
  standardFinalizers,
  validateFieldManager,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './object-meta-validation.js';

const lines = (errs: FieldError[]) => errs.map(formatFieldError);
const namespaced = { namespaced: true, nameValidator: nameIsDNSSubdomain };

describe('validateObjectMeta', () => {
  const cases: { name: string; meta: ObjectMeta; opts?: object; want: string[] }[] = [
    { name: 'valid namespaced metadata', meta: { name: 'a.b', namespace: 'default' }, want: [] },
    {
      name: 'name required unless generateName',
      meta: { namespace: 'default' },
      want: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'generateName is checked as a prefix',
      meta: { name: 'web-x1y2z', generateName: 'web-', namespace: 'default' },
      want: [],
    },
    {
      name: 'bad generateName',
      meta: { name: 'x', generateName: 'Web_', namespace: 'default' },
      want: [
        `metadata.generateName: Invalid value: "Web_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'namespace required for namespaced kinds',
      meta: { name: 'a' },
      want: ['metadata.namespace: Required value'],
    },
    {
      name: 'namespace must be a DNS label',
      meta: { name: 'a', namespace: 'a.b' },
      want: ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
    },
    {
      name: 'namespace forbidden on cluster-scoped kinds',
      meta: { name: 'a', namespace: 'default' },
      opts: { namespaced: false, nameValidator: nameIsDNSLabel },
      want: ['metadata.namespace: Forbidden: not allowed on this type'],
    },
    {
      name: 'negative generation',
      meta: { name: 'a', namespace: 'n', generation: -1 },
      want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
    },
    {
      name: 'labels',
      meta: { name: 'a', namespace: 'n', labels: { 'example.com/ok': 'v', 'bad key!': 'ok', k: 'bad value!' } },
      want: [
        `metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        `metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    },
    {
      name: 'annotation keys are case-insensitive qualified names; total size limit',
      meta: { name: 'a', namespace: 'n', annotations: { 'Example.COM/Key': 'x', big: 'x'.repeat(256 * 1024) } },
      want: ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    },
    {
      name: 'owner references',
      meta: {
        name: 'a',
        namespace: 'n',
        ownerReferences: [
          { apiVersion: '', kind: '', name: '', uid: '' },
          { apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' },
          { apiVersion: 'apps/v1', kind: 'A', name: 'x', uid: '2', controller: true },
          { apiVersion: 'apps/v1', kind: 'B', name: 'y', uid: '3', controller: true },
        ],
      },
      want: [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
        'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"1"}: /v1, Kind=Event is disallowed from being an owner',
        'metadata.ownerReferences: Invalid value: [{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"v1","kind":"Event","name":"e","uid":"1"},{"apiVersion":"apps/v1","kind":"A","name":"x","uid":"2","controller":true},{"apiVersion":"apps/v1","kind":"B","name":"y","uid":"3","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for A/x and B/y',
      ],
    },
    {
      name: 'finalizers',
      meta: { name: 'a', namespace: 'n', finalizers: ['orphan', 'foregroundDeletion', 'bad/x/y'] },
      want: [
        `metadata.finalizers: Invalid value: "bad/x/y": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","bad/x/y"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    },
    {
      name: 'core kinds require standard or domain-prefixed finalizers',
      meta: { name: 'a', namespace: 'n', finalizers: ['orch', 'example.com/x', 'custom'] },
      opts: { ...namespaced, standardFinalizers: standardFinalizers(ORCH_DOMAIN) },
      want: [
        'metadata.finalizers[2]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
    {
      name: 'managed fields',
      meta: {
        name: 'a',
        namespace: 'n',
        managedFields: [
          { manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' },
          { manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2', subresource: 's'.repeat(257) },
        ],
      },
      want: [
        'metadata.managedFields[1].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(lines(validateObjectMeta(c.meta, { ...namespaced, ...c.opts })), c.want);
    });
  }
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'n',
    uid: 'u1',
    resourceVersion: '5',
    generation: 2,
    creationTimestamp: '2024-01-01T00:00:00Z',
  };
  const cases: { name: string; next: ObjectMeta; old?: ObjectMeta; want: string[] }[] = [
    { name: 'unchanged', next: { ...old }, want: [] },
    {
      name: 'immutable fields and resourceVersion',
      next: {
        name: 'b',
        namespace: 'm',
        uid: 'u2',
        generation: 1,
        creationTimestamp: '2024-02-03T04:05:06Z',
        deletionTimestamp: '2024-02-03T04:05:07Z',
        deletionGracePeriodSeconds: 30,
      },
      want: [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.generation: Invalid value: 1: must not be decremented',
        'metadata.name: Invalid value: "b": field is immutable',
        'metadata.namespace: Invalid value: "m": field is immutable',
        'metadata.uid: Invalid value: "u2": field is immutable',
        'metadata.creationTimestamp: Invalid value: 2024-02-03 04:05:06 +0000 UTC: field is immutable',
        'metadata.deletionTimestamp: Invalid value: 2024-02-03 04:05:07 +0000 UTC: field is immutable',
        'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
      ],
    },
    {
      name: 'no new finalizers while deleting',
      old: { ...old, deletionTimestamp: '2024-01-02T00:00:00Z', finalizers: ['a.io/x'] },
      next: { ...old, deletionTimestamp: '2024-01-02T00:00:00Z', finalizers: ['a.io/x', 'b.io/y', 'a.io/z'] },
      want: [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/z", "b.io/y"}',
      ],
    },
    {
      name: 'labels are validated on update too',
      next: { ...old, labels: { k: '-' } },
      want: [
        `metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(lines(validateObjectMetaUpdate(c.next, c.old ?? old)), c.want);
    });
  }
});

describe('validateFieldManager', () => {
  it('accepts printable names up to 128 bytes', () => {
    assert.deepEqual(validateFieldManager('kubectl-client-side-apply ü', 'fieldManager'), []);
  });
  it('rejects long names and control characters', () => {
    assert.deepEqual(lines(validateFieldManager(`a\u0007b${'x'.repeat(130)}`, 'm')), [
      'm: Too long: may not be more than 128 bytes',
      `m: Invalid value: ${JSON.stringify(`a\u0007b${'x'.repeat(130)}`)}: invalid character U+0007 (at position 1)`,
    ]);
  });
});
