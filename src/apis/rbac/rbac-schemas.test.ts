import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { objectMetaSchema } from '../meta/object-meta-schema.js';
import { buildOpenApiV3GroupVersion } from '../openapi/documents.js';
import { applyDefaults } from '../schema/defaults.js';
import type { Schema } from '../schema/schema.js';
import { validateAgainstSchema } from '../schema/validate.js';
import { rbacResources } from './rbac-resources.js';
import {
  aggregationRuleSchema,
  clusterRoleBindingSchema,
  clusterRoleSchema,
  labelSelectorSchema,
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

/** The parts of the facts file the tests below change. */
interface EditableFacts {
  schemas: Record<string, { properties: Record<string, Record<string, unknown>>; [key: string]: unknown }>;
  protobuf: Record<string, Record<string, { number: number; label: string; type: string }>>;
}

const FACTS = join(ROOT, 'scripts', 'schema-gen', 'upstream', 'rbac-v1.facts.json');

/** Runs the generator (`--stdout`), optionally over other facts. */
function generate(factsFile?: string): { status: number | null; stdout: string; stderr: string } {
  const args = [join('scripts', 'schema-gen', 'generate.ts'), 'rbac', '--stdout'];
  if (factsFile) args.push(`--facts=${factsFile}`);
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe('the RBAC schema generator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-schema-gen-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The committed facts, changed by `edit`, in a temporary file. */
  function factsWith(edit: (facts: EditableFacts) => void): string {
    const facts = JSON.parse(readFileSync(FACTS, 'utf8'));
    edit(facts);
    const file = join(dir, `facts-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(facts));
    return file;
  }
  const RULE = 'io.k8s.api.rbac.v1.PolicyRule';

  it('reproduces the committed module exactly from the committed facts', () => {
    const run = generate();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(join(ROOT, 'src', 'apis', 'rbac', 'rbac-schemas.ts'), 'utf8'));
  });

  it('follows the facts: a new upstream field appears with its type, marker and protobuf number', () => {
    const file = factsWith((f) => {
      f.schemas[RULE].properties.scopes = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
      f.protobuf[RULE].scopes = { number: 6, label: 'repeated', type: 'string' };
    });
    const run = generate(file);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /scopes: \{\s*type: 'array',\s*items: \{ type: 'string' \},\s*'x-orch-list-type': 'set',\s*'x-orch-protobuf-field': 6,?\s*\}/,
    );
  });

  it('reduces upstream-shaped files (prose, other types, comments) to the committed facts and module', () => {
    const facts = JSON.parse(readFileSync(FACTS, 'utf8')) as EditableFacts & {
      source: { openapi: { commit: string } };
    };
    // Upstream carries descriptions everywhere, types the module does not reach, and ObjectMeta,
    // which Orch defines itself.
    const prose = (v: Record<string, unknown>): Record<string, unknown> => {
      const out: Record<string, unknown> = { description: 'Upstream prose.', ...v };
      if (v.properties) {
        const props = Object.entries(v.properties as Record<string, Record<string, unknown>>);
        out.properties = Object.fromEntries(props.map(([k, x]) => [k, prose(x)]));
      }
      if (v.items) out.items = prose(v.items as Record<string, unknown>);
      return out;
    };
    const schemas = {
      ...Object.fromEntries(Object.entries(facts.schemas).map(([k, v]) => [k, prose(v)])),
      'io.k8s.api.rbac.v1.RoleList': { description: 'A list.', type: 'object' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'Metadata.', type: 'object' },
    };
    const openapi = join(dir, 'api', 'openapi.json');
    mkdirSync(dirname(openapi), { recursive: true });
    writeFileSync(openapi, JSON.stringify({ openapi: '3.0.0', paths: { '/x': {} }, components: { schemas } }));
    const proto = (pkg: string, prefix: string, extra: string): string => {
      const messages = Object.entries(facts.protobuf)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, fields]) => {
          const body = Object.entries(fields).map(([field, f]) =>
            f.label === 'map'
              ? `  ${f.type} ${field} = ${f.number};`
              : `  // A field.\n  // +optional\n  ${f.label} ${f.type} ${field} = ${f.number};`,
          );
          return `// ${name}.\nmessage ${name.slice(prefix.length)} {\n${body.join('\n\n')}\n}\n`;
        });
      return `// Generated.\n\nsyntax = "proto2";\n\npackage ${pkg};\n\nimport "x.proto";\n\n${messages.join('\n')}\n${extra}`;
    };
    const rbacProto = join(dir, 'rbac.proto');
    writeFileSync(
      rbacProto,
      proto('k8s.io.api.rbac.v1', 'io.k8s.api.rbac.v1.', 'message RoleList {\n  repeated Role items = 2;\n}\n'),
    );
    const metaProto = join(dir, 'meta.proto');
    writeFileSync(
      metaProto,
      proto(
        'k8s.io.apimachinery.pkg.apis.meta.v1',
        'io.k8s.apimachinery.pkg.apis.meta.v1.',
        'message ObjectMeta {\n  optional string name = 1;\n}\n',
      ),
    );
    const out = join(dir, 'reduced.json');
    const commit = facts.source.openapi.commit;
    const reduce = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join('scripts', 'schema-gen', 'reduce-upstream.ts'),
        'rbac',
        `--openapi=${openapi}@${commit}`,
        `--proto=${rbacProto}@a`,
        `--proto=${metaProto}@b`,
        `--out=${out}`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(reduce.status, 0, reduce.stderr);
    const reduced = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(reduced.schemas, facts.schemas);
    assert.deepEqual(reduced.protobuf, facts.protobuf);
    const run = generate(out);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(join(ROOT, 'src', 'apis', 'rbac', 'rbac-schemas.ts'), 'utf8'));
  });

  const refusals: [string, (facts: EditableFacts) => void, string][] = [
    [
      'upstream prose',
      (f) => {
        f.schemas[RULE].properties.verbs.description = 'copied text';
      },
      `descriptions are not facts: ${RULE}`,
    ],
    [
      'an extension it has no marker for',
      (f) => {
        f.schemas[RULE]['x-kubernetes-validations'] = [{ rule: 'true' }];
      },
      `${RULE}: no mapping for "x-kubernetes-validations"`,
    ],
    [
      'a field without a protobuf number',
      (f) => {
        delete f.protobuf[RULE].resourceNames;
      },
      `${RULE}.resourceNames: no protobuf field number`,
    ],
    [
      'a protobuf label that contradicts the JSON shape',
      (f) => {
        f.protobuf[RULE].verbs.label = 'optional';
      },
      `${RULE}.verbs: protobuf label optional, JSON shape repeated`,
    ],
    [
      'a referenced type without a description of our own',
      (f) => {
        f.schemas[RULE].properties.selector = {
          allOf: [{ $ref: '#/components/schemas/io.k8s.api.rbac.v1.Unknown' }],
        };
        f.schemas['io.k8s.api.rbac.v1.Unknown'] = { type: 'object', properties: {} };
        f.protobuf[RULE].selector = { number: 9, label: 'optional', type: 'Unknown' };
      },
      'io.k8s.api.rbac.v1.Unknown: needs a description of our own',
    ],
  ];
  for (const [what, edit, message] of refusals) {
    it(`refuses ${what}`, () => {
      const run = generate(factsWith(edit));
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.includes(message), run.stderr);
    });
  }
});

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
