import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { labelSelectorSchema, objectMetaSchema } from '../meta/meta-v1-schemas.js';
import { buildOpenApiV3GroupVersion } from '../openapi/documents.js';
import { applyDefaults } from '../schema/defaults.js';
import type { Schema } from '../schema/schema.js';
import { validateAgainstSchema } from '../schema/validate.js';
import { rbacResources } from './rbac-resources.js';
import {
  aggregationRuleSchema,
  clusterRoleBindingSchema,
  clusterRoleSchema,
  policyRuleSchema,
  roleBindingSchema,
  roleRefSchema,
  roleSchema,
  subjectSchema,
} from './rbac-schemas.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './rbac-types.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Every generated named type with its Go-order property list. */
const TYPES: [Schema, string, string[]][] = [
  [roleSchema, 'Role', ['apiVersion', 'kind', 'metadata', 'rules']],
  [clusterRoleSchema, 'ClusterRole', ['apiVersion', 'kind', 'metadata', 'rules', 'aggregationRule']],
  [roleBindingSchema, 'RoleBinding', ['apiVersion', 'kind', 'metadata', 'subjects', 'roleRef']],
  [clusterRoleBindingSchema, 'ClusterRoleBinding', ['apiVersion', 'kind', 'metadata', 'subjects', 'roleRef']],
  [policyRuleSchema, 'PolicyRule', ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs']],
  [subjectSchema, 'Subject', ['kind', 'apiGroup', 'name', 'namespace']],
  [roleRefSchema, 'RoleRef', ['apiGroup', 'kind', 'name']],
  [aggregationRuleSchema, 'AggregationRule', ['clusterRoleSelectors']],
];

const FACTS = join(ROOT, 'scripts', 'schema-gen', 'upstream', 'rbac-v1.facts.json');

describe('generated RBAC schemas', () => {
  it('publish, under the k8s.io profile, exactly the upstream facts they were generated from', () => {
    const kube = apiDomain('k8s.io');
    const doc = buildOpenApiV3GroupVersion(rbacResources(kube), kube.group('rbac.authorization'), 'v1', {
      domain: kube,
    });
    const published = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const facts = JSON.parse(readFileSync(FACTS, 'utf8')) as { schemas: Record<string, unknown> };
    // Descriptions are ours, not upstream's; a bare `$ref` equals upstream's one-element `allOf`
    // (kube wraps references that carry a field description, and our fields have none).
    const normalize = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(normalize);
      if (v === null || typeof v !== 'object') return v;
      const entries = Object.entries(v).filter(([k]) => k !== 'description');
      const obj = Object.fromEntries(entries.map(([k, x]) => [k, normalize(x)]));
      const only = Object.keys(obj).length === 1 && Array.isArray(obj.allOf) && obj.allOf.length === 1;
      return only ? (obj.allOf as unknown[])[0] : obj;
    };
    for (const [name, schema] of Object.entries(facts.schemas)) {
      assert.deepEqual(normalize(published[name]), normalize(schema), name);
    }
  });

  it('carry internal type names that each profile maps to its own definition names', () => {
    const kube = apiDomain('k8s.io');
    for (const [schema, kind, props] of TYPES) {
      const name = schema['x-orch-type-name'];
      assert.equal(name, `io.orch.api.rbac.v1.${kind}`);
      assert.equal(apiDomain('orch.io').definitionName(name), name);
      assert.equal(kube.definitionName(name), `io.k8s.api.rbac.v1.${kind}`);
      assert.ok(schema['x-orch-type-description'], `${kind} has a description of its own`);
      assert.deepEqual(Object.keys(schema.properties ?? {}), props, `${kind} properties in Go order`);
    }
  });

  it('reference the shared ObjectMeta schema instead of a copy', () => {
    for (const schema of [roleSchema, clusterRoleSchema, roleBindingSchema, clusterRoleBindingSchema]) {
      const metadata = schema.properties?.metadata;
      assert.equal(metadata?.['x-orch-type-name'], objectMetaSchema['x-orch-type-name']);
      assert.equal(metadata?.properties, objectMetaSchema.properties);
      assert.equal(metadata?.['x-orch-protobuf-field'], 1);
    }
    assert.equal(clusterRoleSchema.properties?.aggregationRule?.properties, aggregationRuleSchema.properties);
    assert.equal(
      aggregationRuleSchema.properties?.clusterRoleSelectors.items?.properties,
      labelSelectorSchema.properties,
    );
  });

  it('keep the upstream markers, required fields and protobuf numbers', () => {
    assert.equal(roleRefSchema['x-orch-map-type'], 'atomic');
    assert.equal(subjectSchema['x-orch-map-type'], 'atomic');
    assert.equal(labelSelectorSchema['x-orch-map-type'], 'atomic');
    assert.deepEqual(roleRefSchema.required, ['apiGroup', 'kind', 'name']);
    assert.deepEqual(roleBindingSchema.required, ['roleRef']);
    assert.deepEqual(policyRuleSchema.required, ['verbs']);
    for (const list of [roleSchema.properties?.rules, roleBindingSchema.properties?.subjects]) {
      assert.equal(list?.['x-orch-list-type'], 'atomic');
      assert.equal(list?.['x-orch-protobuf-field'], 2);
    }
    const numbers = Object.values(subjectSchema.properties ?? {}).map((p) => p['x-orch-protobuf-field']);
    assert.deepEqual(numbers, [1, 2, 3, 4]);
    // Nothing from upstream prose: fields carry no descriptions of their own.
    const described = (s: Schema): number =>
      (s.description ? 1 : 0) + Object.values(s.properties ?? {}).reduce((n, p) => n + described(p), 0);
    for (const schema of [policyRuleSchema, subjectSchema, roleRefSchema, aggregationRuleSchema]) {
      assert.equal(described(schema), 0);
    }
  });
});

const group = ORCH_DOMAIN.group('rbac.authorization');

/** Valid objects, typed with the hand-written interfaces (so they stay compatible). */
const role: Role = {
  apiVersion: `${group}/v1`,
  kind: 'Role',
  metadata: { name: 'reader', namespace: 'ns' },
  rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['a'] }],
};
const clusterRole: ClusterRole = {
  apiVersion: `${group}/v1`,
  kind: 'ClusterRole',
  metadata: { name: 'aggregate' },
  rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] },
};
const binding: RoleBinding = {
  apiVersion: `${group}/v1`,
  kind: 'RoleBinding',
  metadata: { name: 'read', namespace: 'ns' },
  subjects: [
    { kind: 'User', apiGroup: group, name: 'alice' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'ns' },
  ],
  roleRef: { apiGroup: group, kind: 'Role', name: 'reader' },
};
const clusterBinding: ClusterRoleBinding = { ...binding, kind: 'ClusterRoleBinding', metadata: { name: 'read' } };

describe('validation with the generated RBAC schemas', () => {
  it('accepts good objects of every kind', () => {
    assert.deepEqual(validateAgainstSchema(roleSchema, role), []);
    assert.deepEqual(validateAgainstSchema(clusterRoleSchema, clusterRole), []);
    assert.deepEqual(validateAgainstSchema(roleBindingSchema, binding), []);
    assert.deepEqual(validateAgainstSchema(clusterRoleBindingSchema, clusterBinding), []);
  });

  const bad: { name: string; schema: Schema; value: unknown; want: [string, string][] }[] = [
    {
      name: 'a rule without verbs',
      schema: roleSchema,
      value: { ...role, rules: [{ resources: ['pods'] }] },
      want: [['FieldValueRequired', 'rules[0].verbs']],
    },
    {
      name: 'rules that are not a list',
      schema: roleSchema,
      value: { ...role, rules: { verbs: ['get'] } },
      want: [['FieldValueTypeInvalid', 'rules']],
    },
    {
      name: 'a verb that is not a string',
      schema: clusterRoleSchema,
      value: { ...clusterRole, rules: [{ verbs: ['get', 7] }] },
      want: [['FieldValueTypeInvalid', 'rules[0].verbs[1]']],
    },
    {
      name: 'a selector whose labels are not strings',
      schema: clusterRoleSchema,
      value: { ...clusterRole, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 1 } }] } },
      want: [['FieldValueTypeInvalid', 'aggregationRule.clusterRoleSelectors[0].matchLabels.a']],
    },
    {
      name: 'a binding without roleRef',
      schema: roleBindingSchema,
      value: { ...binding, roleRef: undefined },
      want: [['FieldValueRequired', 'roleRef']],
    },
    {
      name: 'a subject without kind and a name that is a number',
      schema: clusterRoleBindingSchema,
      value: { ...clusterBinding, subjects: [{ name: 5 }] },
      want: [
        ['FieldValueRequired', 'subjects[0].kind'],
        ['FieldValueTypeInvalid', 'subjects[0].name'],
      ],
    },
    {
      name: 'a roleRef missing its name',
      schema: roleBindingSchema,
      value: { ...binding, roleRef: { apiGroup: group, kind: 'Role' } },
      want: [['FieldValueRequired', 'roleRef.name']],
    },
  ];
  for (const c of bad) {
    it(`rejects ${c.name}`, () => {
      const errs = validateAgainstSchema(c.schema, c.value).map((e) => [e.type, e.field]);
      assert.deepEqual(errs.sort(), [...c.want].sort());
    });
  }

  it('defaults an empty roleRef to the zero values Go decodes it into', () => {
    const obj: Record<string, unknown> = { apiVersion: 'x/v1', kind: 'RoleBinding', metadata: { name: 'b' } };
    applyDefaults(roleBindingSchema, obj);
    assert.deepEqual(obj.roleRef, { apiGroup: '', kind: '', name: '' });
    assert.deepEqual(validateAgainstSchema(roleBindingSchema, obj), []);
  });
});
