import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { apiDomain } from './api-domain.js';
import * as apiextensions from './apiextensions/apiextensions-v1-schemas.js';
import * as apps from './apps/apps-v1-schemas.js';
import * as authentication from './authentication/authentication-v1-schemas.js';
import * as authorization from './authorization/authorization-v1-schemas.js';
import * as autoscalingV1 from './autoscaling/autoscaling-v1-schemas.js';
import * as autoscalingV2 from './autoscaling/autoscaling-v2-schemas.js';
import * as batch from './batch/batch-v1-schemas.js';
import * as certificates from './certificates/certificates-v1-schemas.js';
import * as coordination from './coordination/coordination-v1-schemas.js';
import * as coordinationV1alpha2 from './coordination/coordination-v1alpha2-schemas.js';
import * as core from './core/core-v1-schemas.js';
import * as discovery from './discovery/discovery-v1-schemas.js';
import * as eventsV1 from './events/events-v1-schemas.js';
import * as flowcontrol from './flowcontrol/flowcontrol-v1-schemas.js';
import * as meta from './meta/meta-v1-schemas.js';
import * as networking from './networking/networking-v1-schemas.js';
import * as node from './node/node-v1-schemas.js';
import { DefinitionCollector, type OpenApiObject } from './openapi/schema-conversion.js';
import * as policy from './policy/policy-v1-schemas.js';
import * as rbac from './rbac/rbac-schemas.js';
import * as scheduling from './scheduling/scheduling-v1-schemas.js';
import type { Schema } from './schema/schema.js';
import * as storage from './storage/storage-v1-schemas.js';

/**
 * The generated built-in schema modules (scripts/schema-gen): up to date with their committed
 * facts, publishing under the k8s.io profile exactly the definitions the facts hold, kinds with
 * a description of Orch's own, and types of other modules imported rather than copied.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const UPSTREAM = join(ROOT, 'scripts', 'schema-gen', 'upstream');

/** Each module's exports by the facts file it is generated from. */
const MODULES: Record<string, Record<string, Schema>> = {
  'meta-v1': meta,
  'core-v1': core,
  'rbac-v1': rbac,
  'apps-v1': apps,
  'batch-v1': batch,
  'autoscaling-v1': autoscalingV1,
  'autoscaling-v2': autoscalingV2,
  'policy-v1': policy,
  'networking-v1': networking,
  'discovery-v1': discovery,
  'events-v1': eventsV1,
  'scheduling-v1': scheduling,
  'node-v1': node,
  'storage-v1': storage,
  'certificates-v1': certificates,
  'flowcontrol-v1': flowcontrol,
  'coordination-v1': coordination,
  'coordination-v1alpha2': coordinationV1alpha2,
  'authentication-v1': authentication,
  'authorization-v1': authorization,
  'apiextensions-v1': apiextensions,
};

interface Facts {
  schemas: Record<string, Record<string, unknown>>;
}

const GVK = 'x-kubernetes-group-version-kind';

/** Facts and published definitions compared without descriptions, GVKs and unions (not published). */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v === null || typeof v !== 'object') return v;
  const dropped = new Set(['description', GVK, 'x-kubernetes-unions']);
  const entries = Object.entries(v).filter(([k]) => !dropped.has(k));
  const obj = Object.fromEntries(entries.map(([k, x]) => [k, normalize(x)]));
  // A bare $ref equals upstream's one-element allOf (kube wraps references that carry a description).
  const only = Object.keys(obj).length === 1 && Array.isArray(obj.allOf) && obj.allOf.length === 1;
  return only ? (obj.allOf as unknown[])[0] : obj;
}

describe('generated built-in schema modules', () => {
  it('are up to date with the committed facts (generate.ts all --check)', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join('scripts', 'schema-gen', 'generate.ts'), 'all', '--check'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
  });

  it('cover every committed facts file', () => {
    const files = readdirSync(UPSTREAM).filter((f) => f.endsWith('.facts.json') && !f.includes('.openapi.'));
    assert.deepEqual(files.map((f) => f.slice(0, -'.facts.json'.length)).sort(), Object.keys(MODULES).sort());
  });

  for (const [name, exports] of Object.entries(MODULES)) {
    it(`${name}: publishes under the k8s.io profile exactly the definitions of its facts`, () => {
      const facts = JSON.parse(readFileSync(join(UPSTREAM, `${name}.facts.json`), 'utf8')) as Facts;
      const kube = apiDomain('k8s.io');
      const collector = new DefinitionCollector('v3', (n) => kube.definitionName(n));
      const schemas = Object.values(exports);
      for (const schema of schemas) collector.define(schema);
      const published: Record<string, OpenApiObject | undefined> = Object.fromEntries(collector.definitions);
      for (const [def, schema] of Object.entries(facts.schemas)) {
        assert.deepEqual(normalize(published[def]), normalize(schema), def);
      }
      // Every definition the module exports comes from its facts (inlined structs are none).
      const own = schemas.map((s) => kube.definitionName(s['x-orch-type-name'] as string));
      assert.deepEqual(
        own.filter((d) => !(d in facts.schemas)),
        [],
      );
    });

    it(`${name}: kinds carry a description of Orch's own, other types none`, () => {
      const facts = JSON.parse(readFileSync(join(UPSTREAM, `${name}.facts.json`), 'utf8')) as Facts;
      const kube = apiDomain('k8s.io');
      for (const schema of Object.values(exports)) {
        const def = kube.definitionName(schema['x-orch-type-name'] as string);
        const isKind = facts.schemas[def][GVK] !== undefined;
        const description = schema['x-orch-type-description'];
        if (isKind) {
          assert.ok(description && !description.includes('\n') && description.length < 120, def);
          assert.ok(schema.properties?.apiVersion && schema.properties.kind, def);
          // Options kinds (DeleteOptions) have no metadata.
          const hasMetadata = (facts.schemas[def].properties as Record<string, unknown>).metadata !== undefined;
          assert.equal(schema.properties.metadata !== undefined, hasMetadata, def);
        } else if (!['meta-v1', 'rbac-v1'].includes(name)) {
          assert.equal(description, undefined, def);
        }
      }
    });
  }

  it('import the types of other modules instead of copying them', () => {
    const podTemplate = apps.deploymentSpecSchema.properties?.template;
    assert.equal(podTemplate?.properties, core.podTemplateSpecSchema.properties);
    assert.equal(podTemplate?.['x-orch-protobuf-field'], 3);
    assert.equal(apps.deploymentSpecSchema.properties?.selector?.properties, meta.labelSelectorSchema.properties);
    assert.equal(
      rbac.aggregationRuleSchema.properties?.clusterRoleSelectors.items?.properties,
      meta.labelSelectorSchema.properties,
    );
    const names = new Map<string, string>();
    for (const [module, exports] of Object.entries(MODULES)) {
      for (const schema of Object.values(exports)) {
        const type = schema['x-orch-type-name'] as string;
        assert.equal(names.get(type), undefined, `${type} is generated in ${names.get(type)} and ${module}`);
        names.set(type, module);
      }
    }
  });
});
