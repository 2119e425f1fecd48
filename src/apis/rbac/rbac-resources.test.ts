import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { buildTable } from '../table/build-table.js';
import {
  clusterRoleBindingResource,
  clusterRoleResource,
  rbacResources,
  roleBindingResource,
  roleResource,
} from './rbac-resources.js';

const GROUP = ORCH_DOMAIN.group('rbac.authorization');

/** A create as the registry runs it: defaults, then prepare, then validation. */
function create(def: BuiltinResourceDefinition, obj: ApiObject): string[] {
  def.strategy.defaults?.(obj);
  def.strategy.prepareForCreate(obj);
  return def.strategy.validateCreate(obj).map(formatFieldError);
}

/** An update as the registry runs it: the live object's resourceVersion copied onto the new one. */
function update(def: BuiltinResourceDefinition, obj: ApiObject, old: ApiObject): string[] {
  for (const o of [obj, old]) (o.metadata as Record<string, unknown>).resourceVersion = '7';
  def.strategy.defaults?.(old);
  def.strategy.prepareForCreate(old);
  def.strategy.defaults?.(obj);
  def.strategy.prepareForUpdate(obj, old);
  return def.strategy.validateUpdate(obj, old).map(formatFieldError);
}

const role = (rules: unknown, name = 'r'): ApiObject => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Role',
  metadata: { name, namespace: 'ns' },
  rules,
});
const clusterRole = (fields: Record<string, unknown>, name = 'cr'): ApiObject => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'ClusterRole',
  metadata: { name },
  ...fields,
});
const binding = (kind: string, fields: Record<string, unknown>): ApiObject => ({
  apiVersion: `${GROUP}/v1`,
  kind,
  metadata: kind === 'RoleBinding' ? { name: 'b', namespace: 'ns' } : { name: 'b' },
  ...fields,
});

describe('RBAC resource definitions', () => {
  it('are served as kube serves them, under the domain of the profile', () => {
    const rows = rbacResources(apiDomain('k8s.io')).map((d) => [
      d.group,
      d.resource,
      d.singular,
      d.kind,
      d.listKind,
      d.namespaced,
      d.shortNames.length,
      d.allowCreateOnUpdate,
    ]);
    assert.deepEqual(rows, [
      [
        'rbac.authorization.k8s.io',
        'clusterrolebindings',
        'clusterrolebinding',
        'ClusterRoleBinding',
        'ClusterRoleBindingList',
        false,
        0,
        true,
      ],
      ['rbac.authorization.k8s.io', 'clusterroles', 'clusterrole', 'ClusterRole', 'ClusterRoleList', false, 0, true],
      ['rbac.authorization.k8s.io', 'rolebindings', 'rolebinding', 'RoleBinding', 'RoleBindingList', true, 0, true],
      ['rbac.authorization.k8s.io', 'roles', 'role', 'Role', 'RoleList', true, 0, true],
    ]);
    assert.equal(roleResource().group, GROUP);
  });
});

describe('Role and ClusterRole validation', () => {
  const cases: { name: string; obj: () => ApiObject; def: BuiltinResourceDefinition; want: string[] }[] = [
    {
      name: 'a resource rule and a wildcard rule',
      def: roleResource(),
      obj: () =>
        role([
          { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        ]),
      want: [],
    },
    {
      name: 'a name that is not a path segment',
      def: roleResource(),
      obj: () => role([], 'a/b'),
      want: ['metadata.name: Invalid value: "a/b": may not contain \'/\''],
    },
    {
      name: 'names kube allows that DNS would not',
      def: roleResource(),
      obj: () => role([], 'system:Controller_X'),
      want: [],
    },
    {
      name: 'a rule without verbs, groups or resources',
      def: roleResource(),
      obj: () => role([{}]),
      want: [
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ],
    },
    {
      name: 'non-resource URLs in a namespaced role, mixed with resources',
      def: roleResource(),
      obj: () => role([{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }]),
      want: [
        'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
        'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
      ],
    },
    {
      name: 'non-resource URLs in a cluster role',
      def: clusterRoleResource(),
      obj: () => clusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }] }),
      want: [],
    },
    {
      name: 'an aggregation rule without selectors',
      def: clusterRoleResource(),
      obj: () => clusterRole({ aggregationRule: {} }),
      want: [
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ],
    },
    {
      name: 'aggregation selectors with bad operators, keys and values',
      def: clusterRoleResource(),
      obj: () =>
        clusterRole({
          aggregationRule: {
            clusterRoleSelectors: [
              { matchLabels: { 'example.com/agg': 'true' } },
              { matchExpressions: [{ key: 'tier', operator: 'Near', values: ['a'] }] },
              {
                matchExpressions: [
                  { key: 'x', operator: 'Exists', values: ['a'] },
                  { key: 'y', operator: 'In' },
                ],
              },
            ],
          },
        }),
      want: [
        'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
        "aggregationRule.clusterRoleSelectors[2].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        "aggregationRule.clusterRoleSelectors[2].matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'aggregationRule.clusterRoleSelectors[2]: Invalid value: "null": invalid label selector.',
      ],
    },
    {
      name: 'rules of the wrong type (the schema speaks first)',
      def: roleResource(),
      obj: () => role([{ verbs: 'get' }]),
      want: ['rules[0].verbs: Invalid value: "string": rules[0].verbs in body must be of type array: "string"'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(c.def, c.obj()), c.want));
  }

  it('skips the value check for values that were already invalid, as kube does, though conversion still fails', () => {
    const bad = { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['not valid'] }] }] };
    const def = clusterRoleResource();
    const conversion = 'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.';
    assert.deepEqual(create(def, clusterRole({ aggregationRule: structuredClone(bad) })), [
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]: Invalid value: \"not valid\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      conversion,
    ]);
    const old = clusterRole({ aggregationRule: structuredClone(bad) });
    assert.deepEqual(update(def, clusterRole({ aggregationRule: structuredClone(bad) }), old), [conversion]);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('default the RBAC group into the role reference and user and group subjects', () => {
    const obj = binding('RoleBinding', {
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'sa' },
      ],
    });
    assert.deepEqual(create(roleBindingResource(), obj), []);
    assert.deepEqual(obj.roleRef, { apiGroup: GROUP, kind: 'Role', name: 'r' });
    assert.deepEqual(obj.subjects, [
      { kind: 'User', name: 'alice', apiGroup: GROUP },
      { kind: 'Group', name: 'devs', apiGroup: GROUP },
      { kind: 'ServiceAccount', name: 'sa' },
    ]);
  });

  const cases: { name: string; def: BuiltinResourceDefinition; obj: ApiObject; want: string[] }[] = [
    {
      name: 'a binding without roleRef',
      def: roleBindingResource(),
      obj: binding('RoleBinding', {}),
      want: [
        'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
      ],
    },
    {
      name: 'a role of another group and a bad name',
      def: roleBindingResource(),
      obj: binding('RoleBinding', { roleRef: { apiGroup: 'example.com', kind: 'Role', name: '..' } }),
      want: [
        `roleRef.apiGroup: Unsupported value: "example.com": supported values: "${GROUP}"`,
        'roleRef.name: Invalid value: "..": may not be \'..\'',
      ],
    },
    {
      name: 'a cluster binding of a Role',
      def: clusterRoleBindingResource(),
      obj: binding('ClusterRoleBinding', { roleRef: { apiGroup: GROUP, kind: 'Role', name: 'r' } }),
      want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    },
    {
      name: 'subjects of every kind of mistake',
      def: clusterRoleBindingResource(),
      obj: binding('ClusterRoleBinding', {
        roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'ServiceAccount', name: 'Bad_SA', apiGroup: GROUP },
          { kind: 'User', name: 'u', apiGroup: 'example.com' },
          { kind: 'Robot', name: '' },
        ],
      }),
      want: [
        "subjects[0].name: Invalid value: \"Bad_SA\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        `subjects[0].apiGroup: Unsupported value: "${GROUP}": supported values: ""`,
        'subjects[0].namespace: Required value',
        `subjects[1].apiGroup: Unsupported value: "example.com": supported values: "${GROUP}"`,
        'subjects[2].name: Required value',
        'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      ],
    },
  ];
  for (const c of cases) {
    it(`rejects ${c.name}`, () => assert.deepEqual(create(c.def, c.obj), c.want));
  }

  it('never change their role: 422 cannot change roleRef, subjects may change', () => {
    const def = clusterRoleBindingResource();
    const old = binding('ClusterRoleBinding', { roleRef: { kind: 'ClusterRole', name: 'edit' } });
    const changed = binding('ClusterRoleBinding', { roleRef: { kind: 'ClusterRole', name: 'view' } });
    assert.deepEqual(update(def, changed, old), [
      `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${GROUP}", Kind:"ClusterRole", Name:"view"}: cannot change roleRef`,
    ]);
    const same = binding('ClusterRoleBinding', {
      roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'Group', name: 'devs' }],
    });
    assert.deepEqual(
      update(def, same, binding('ClusterRoleBinding', { roleRef: { kind: 'ClusterRole', name: 'edit' } })),
      [],
    );
  });

  it('print Name, Role, Age and the wide Users, Groups, ServiceAccounts columns', () => {
    const def = roleBindingResource();
    const obj = binding('RoleBinding', {
      roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'other' },
      ],
    });
    (obj.metadata as Record<string, unknown>).creationTimestamp = '2024-01-01T00:00:00Z';
    const table = buildTable(def, [obj], { now: new Date('2024-01-01T00:05:00Z') });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Role', 0],
        ['Age', 0],
        ['Users', 1],
        ['Groups', 1],
        ['ServiceAccounts', 1],
      ],
    );
    assert.deepEqual(table.rows?.[0].cells, ['b', 'ClusterRole/view', '5m', 'alice, bob', 'devs', 'ns/sa, /other']);
    assert.equal(table.columnDefinitions?.[3].description, 'The users the role binding grants its role to.');
    assert.equal(
      clusterRoleBindingResource().tableColumns?.columnDefinitions[5].description,
      'The service accounts the cluster role binding grants its role to, as namespace/name.',
    );
  });

  it('roles print the default Name and Created At table', () => {
    const obj = role([]);
    (obj.metadata as Record<string, unknown>).creationTimestamp = '2024-01-01T00:00:00Z';
    const table = buildTable(roleResource(), [obj], { now: new Date('2024-01-01T00:05:00Z') });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => c.name),
      ['Name', 'Created At'],
    );
    assert.deepEqual(table.rows?.[0].cells, ['r', '2024-01-01T00:00:00Z']);
  });
});
