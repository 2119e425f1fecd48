import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../apis/builtin.js';
import type { ApiObject } from '../apis/object.js';
import { apiVersionOf } from '../apis/resource-definition.js';
import type { Schema } from '../apis/schema/schema.js';
import type { Clock } from '../util/clock.js';
import { seededRandom } from '../util/testing/seeded-random.js';
import { createFieldManager } from './field-manager.js';
import { fieldPathsSet } from './index.js';

const clock: Clock = { now: () => new Date('2026-01-02T03:04:05Z') };

/**
 * Random values of a schema: any subset of properties, short lists whose keys sometimes repeat,
 * empty maps and lists, nulls, values the schema does not declare, nested to a bounded depth.
 */
function generator(rnd: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (s: Schema): unknown => {
    if (s.enum && s.enum.length > 0) return pick(s.enum);
    switch (s.type) {
      case 'integer':
        return pick([0, 1, 2, 80, 443]);
      case 'number':
        return pick([0, 1.5, 3]);
      case 'boolean':
        return rnd() < 0.5;
      default:
        return pick(['a', 'b', 'TCP', 'UDP', 'x-1', '']);
    }
  };
  const value = (s: Schema, depth: number): unknown => {
    if (rnd() < 0.03) return null;
    if (s['x-orch-int-or-string']) return rnd() < 0.5 ? 8080 : 'http';
    if (s.type === 'array' || s.items) {
      if (depth > 6 || rnd() < 0.15) return [];
      const n = 1 + Math.floor(rnd() * 3);
      const items = Array.from({ length: n }, () => value(s.items ?? {}, depth + 1));
      if (rnd() < 0.2 && items.length > 0) items.push(structuredClone(items[0]));
      return items;
    }
    if (s.type === 'object' || s.properties || s.additionalProperties) {
      if (depth > 6 || rnd() < 0.08) return {};
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) if (rnd() < 0.35) out[k] = value(p, depth + 1);
      if (s.additionalProperties && typeof s.additionalProperties === 'object' && rnd() < 0.5) {
        out[pick(['k1', 'k2', 'app'])] = value(s.additionalProperties, depth + 1);
      }
      if (s['x-orch-preserve-unknown-fields'] && rnd() < 0.5) out.extra = { nested: [1, { a: 'b' }], s: 'x' };
      if (rnd() < 0.05) out.undeclared = 'x';
      return out;
    }
    if (s['x-orch-preserve-unknown-fields']) return pick([{ a: 1 }, [1, 2], 'x', {}]);
    return scalar(s);
  };
  return value;
}

const STRIPPED_METADATA = { name: 'n', namespace: 'ns', uid: 'u-1', generation: 3, creationTimestamp: null };

describe('field ownership of a create', () => {
  it('one walk owns what the general path computes, for random objects of every built-in kind', () => {
    let compared = 0;
    let withFields = 0;
    for (const def of builtinResources()) {
      const apiVersion = apiVersionOf(def);
      const rnd = seededRandom(def.kind.length * 7919 + def.resource.length * 31 + def.group.length);
      const value = generator(rnd);
      const resets = [undefined, fieldPathsSet(['status']), fieldPathsSet(['spec', 'metadata.labels'])];
      const fm = createFieldManager({
        schema: def.schema,
        apiVersion,
        kind: def.kind,
        clock,
        newObject: def.zeroObject,
      });
      for (let i = 0; i < 25; i++) {
        const raw = value(def.schema, 0);
        const body = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<
          string,
          unknown
        >;
        const metadata = (body.metadata !== null && typeof body.metadata === 'object' ? body.metadata : {}) as Record<
          string,
          unknown
        >;
        const obj = {
          ...body,
          apiVersion: rnd() < 0.9 ? apiVersion : 'other/v9',
          kind: def.kind,
          metadata: rnd() < 0.5 ? { ...metadata, ...STRIPPED_METADATA } : metadata,
        } as ApiObject;
        const resetFields = resets[i % resets.length];
        const fast = fm.update(undefined, obj, 'writer', { resetFields });
        // A request that brings an empty managedFields list takes the general path.
        const general = fm.update(undefined, { ...obj, metadata: { ...obj.metadata, managedFields: [] } }, 'writer', {
          resetFields,
        });
        assert.equal(JSON.stringify(fast), JSON.stringify(general), `${def.kind} #${i}`);
        compared++;
        if (fast.metadata.managedFields) withFields++;
      }
    }
    assert.ok(compared > 1000, `compared ${compared}`);
    assert.ok(withFields > compared / 2, `${withFields} of ${compared} had fields`);
  });

  it('writes kube’s entry for a pod: manager, operation, version, time and the fields in kube’s order and shape', () => {
    const pod = builtinResources().find((d) => d.group === '' && d.kind === 'Pod')!;
    const fm = createFieldManager({
      schema: pod.schema,
      apiVersion: 'v1',
      kind: 'Pod',
      clock,
      newObject: pod.zeroObject,
    });
    const out = fm.update(
      undefined,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'd', labels: { app: 'x' } },
        spec: {
          containers: [
            { name: 'b', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }] },
            { name: 'a', image: 'i' },
          ],
        },
        status: { phase: 'Pending' },
      },
      '',
      { resetFields: fieldPathsSet(['status']) },
    );
    assert.deepEqual(out.metadata.managedFields, [
      {
        manager: 'unknown',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-02T03:04:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          // kube's zero Pod holds `spec: {containers: null}`: neither is a member.
          'f:spec': {
            'f:containers': {
              'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} },
              'k:{"name":"b"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': {
                  '.': {},
                  'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
                },
              },
            },
          },
        },
      },
    ]);
    assert.deepEqual(Object.keys(out.metadata.managedFields![0]!.fieldsV1 as object), ['f:metadata', 'f:spec']);
  });

  it('writes a Deployment’s fields as kube does: no member for the structs of its zero object', () => {
    const deployment = builtinResources().find((d) => d.kind === 'Deployment')!;
    const fm = createFieldManager({
      schema: deployment.schema,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      clock,
      newObject: deployment.zeroObject,
    });
    const out = fm.update(
      undefined,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', labels: { app: 'web' } },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx' }], dnsPolicy: 'ClusterFirst' },
          },
        },
      },
      'kubectl-create',
      { resetFields: fieldPathsSet(['status']) },
    );
    // The shape kube-apiserver v1.32 records for such a create (its defaults aside).
    assert.equal(
      JSON.stringify(out.metadata.managedFields?.[0]?.fieldsV1),
      JSON.stringify({
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:selector': {},
          'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
          'f:template': {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
            'f:spec': {
              'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
              'f:dnsPolicy': {},
            },
          },
        },
      }),
    );
  });
});
