import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import {
  clusterRoleBindingSchema,
  clusterRoleSchema,
  roleBindingSchema,
  roleSchema,
} from '../../apis/rbac/rbac-schemas.js';
import type { Schema } from '../../apis/schema/schema.js';
import { decodeObject, encodeObject } from './object-codec.js';
import { richMetadata } from './testing/fixtures.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const API_VERSION = `${ORCH_DOMAIN.group('rbac.authorization')}/v1`;

/** `k8s\0` + Unknown{typeMeta, raw, "", ""} around `raw` (hex), every length below 128. */
function envelope(apiVersion: string, kind: string, raw: string): string {
  const len = (h: string) => (h.length / 2).toString(16).padStart(2, '0');
  const str = (tag: string, s: string) => {
    const h = Buffer.from(s).toString('hex');
    return `${tag}${len(h)}${h}`;
  };
  const typeMeta = str('0a', apiVersion) + str('12', kind);
  return `6b387300 0a${len(typeMeta)}${typeMeta} 12${len(raw)}${raw} 1a00 2200`.replace(/\s+/g, '');
}

const subjects = [
  { kind: 'User', apiGroup: ORCH_DOMAIN.group('rbac.authorization'), name: 'alice' },
  { kind: 'Group', apiGroup: ORCH_DOMAIN.group('rbac.authorization'), name: 'devs' },
  { kind: 'ServiceAccount', name: 'default', namespace: 'ns' },
];
const roleRef = { apiGroup: ORCH_DOMAIN.group('rbac.authorization'), kind: 'ClusterRole', name: 'view' };
const rules = [
  {
    verbs: ['get', 'list', 'watch'],
    apiGroups: ['', 'apps'],
    resources: ['pods', 'deployments/scale'],
    resourceNames: ['web'],
  },
  { verbs: ['*'], nonResourceURLs: ['/healthz', '/metrics/*'] },
];

const objects: [string, Schema, Record<string, unknown>][] = [
  ['Role', roleSchema, { metadata: richMetadata('reader', 'ns'), rules }],
  [
    'ClusterRole',
    clusterRoleSchema,
    {
      metadata: richMetadata('aggregate'),
      rules,
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { 'example.com/aggregate-to-view': 'true' } },
          {
            matchExpressions: [
              { key: 'tier', operator: 'In', values: ['a', 'b'] },
              { key: 'x', operator: 'Exists' },
            ],
          },
        ],
      },
    },
  ],
  ['RoleBinding', roleBindingSchema, { metadata: richMetadata('read', 'ns'), subjects, roleRef }],
  ['ClusterRoleBinding', clusterRoleBindingSchema, { metadata: richMetadata('read'), subjects, roleRef }],
];

describe('protobuf round trips of the generated RBAC kinds', () => {
  for (const [kind, schema, body] of objects) {
    it(`${kind}: JSON → protobuf → JSON is the identity`, () => {
      const obj = { apiVersion: API_VERSION, kind, ...body };
      const encoded = encodeObject(schema, obj);
      const decoded = decodeObject(schema, encoded, { apiVersion: API_VERSION, kind });
      assert.deepEqual(decoded, obj);
      assert.deepEqual(Object.keys(decoded), Object.keys(obj));
      assert.equal(hex(encodeObject(schema, decoded)), hex(encoded));
    });
  }

  it('a small Role, byte for byte', () => {
    const role = {
      apiVersion: API_VERSION,
      kind: 'Role',
      metadata: { name: 'r', namespace: 'n' },
      rules: [{ verbs: ['get'], resources: ['pods'] }],
    };
    const raw =
      '0a06' + // metadata, 6 bytes
      '0a0172' + // name "r" (1)
      '1a016e' + // namespace "n" (3)
      '120b' + // rules[0], 11 bytes (2)
      '0a03676574' + // verbs "get" (1)
      '1a04706f6473'; // resources "pods" (3)
    const encoded = encodeObject(roleSchema, role);
    assert.equal(hex(encoded), envelope(API_VERSION, 'Role', raw));
    assert.deepEqual(decodeObject(roleSchema, encoded), role);
  });

  it('a RoleBinding: subject fields in Go order (kind 1, apiGroup 2, name 3, namespace 4), roleRef 3', () => {
    const binding = {
      apiVersion: API_VERSION,
      kind: 'RoleBinding',
      metadata: { name: 'b' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'n' }],
      roleRef: { apiGroup: 'g', kind: 'Role', name: 'r' },
    };
    const raw =
      '0a03' +
      '0a0162' + // metadata { name: "b" } (1)
      '1217' + // subjects[0], 23 bytes (2)
      '0a0e' +
      Buffer.from('ServiceAccount').toString('hex') + // kind (1)
      '1a027361' + // name "sa" (3)
      '22016e' + // namespace "n" (4)
      '1a0c' + // roleRef, 12 bytes (3)
      '0a0167' + // apiGroup "g" (1)
      '1204526f6c65' + // kind "Role" (2)
      '1a0172'; // name "r" (3)
    const encoded = encodeObject(roleBindingSchema, binding);
    assert.equal(hex(encoded), envelope(API_VERSION, 'RoleBinding', raw));
    assert.deepEqual(decodeObject(roleBindingSchema, encoded), binding);
  });
});
