import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import type { Pod } from '../../apis/core/pod-types.js';
import type { Service } from '../../apis/core/service-types.js';
import type { EndpointSlice } from '../../apis/discovery/endpoint-slice-types.js';
import { sliceNames } from './desired-endpoints.js';
import { type PlanInput, planSlices } from './slice-plan.js';

const names = sliceNames(apiDomain('k8s.io'));

const svc: Service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid' },
  spec: {
    selector: { app: 'web' },
    clusterIP: '10.0.0.10',
    ipFamilies: ['IPv4'],
    ports: [
      { name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' },
      { name: 'admin', port: 9000, targetPort: 9001, protocol: 'TCP' },
    ],
  },
};

function pod(n: number, ips: string[] = [`10.1.0.${n}`]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${n}`, namespace: 'ns', uid: `u${n}`, labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', ports: [{ name: 'web', containerPort: 8080, protocol: 'TCP' }] }] },
    status: {
      phase: 'Running',
      podIP: ips[0],
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

function input(o: Partial<PlanInput>): PlanInput {
  return {
    service: svc,
    pods: [],
    slices: [],
    node: () => undefined,
    maxEndpointsPerSlice: 100,
    names,
    apiVersion: 'discovery.k8s.io/v1',
    ...o,
  };
}

describe('EndpointSlice planning', () => {
  it("uses kube's label names and resolves named and numbered target ports", () => {
    const plan = planSlices(input({ pods: [pod(1)] }));
    assert.equal(plan.create.length, 1);
    const [slice] = plan.create;
    assert.deepEqual(slice.metadata.labels, {
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    assert.deepEqual(slice.ports, [
      { name: 'http', port: 8080, protocol: 'TCP' },
      { name: 'admin', port: 9001, protocol: 'TCP' },
    ]);
    assert.deepEqual(slice.endpoints, [
      {
        addresses: ['10.1.0.1'],
        conditions: { ready: true, serving: true, terminating: false },
        targetRef: { kind: 'Pod', namespace: 'ns', name: 'p1', uid: 'u1' },
      },
    ]);
  });

  it('splits endpoints over slices of at most MaxEndpointsPerSlice', () => {
    const plan = planSlices(input({ pods: [1, 2, 3, 4, 5].map((n) => pod(n)), maxEndpointsPerSlice: 2 }));
    assert.deepEqual(
      plan.create.map((s) => (s.endpoints ?? []).length),
      [2, 2, 1],
    );
  });

  it('one slice per address type for a dual-stack service', () => {
    const dual = { ...svc, spec: { ...svc.spec, ipFamilies: ['IPv4', 'IPv6'] } };
    const plan = planSlices(input({ service: dual, pods: [pod(1, ['10.1.0.1', 'fd00::1'])] }));
    assert.deepEqual(
      plan.create.map((s) => [s.addressType, s.endpoints?.[0]?.addresses]),
      [
        ['IPv4', ['10.1.0.1']],
        ['IPv6', ['fd00::1']],
      ],
    );
  });

  it('turns a slice whose endpoints all left into the placeholder, and keeps an existing placeholder', () => {
    const [old] = planSlices(input({ pods: [pod(1)] })).create;
    const existing: EndpointSlice = { ...old, metadata: { ...old.metadata, name: 'web-abcde', resourceVersion: '7' } };
    const plan = planSlices(input({ slices: [existing] }));
    assert.deepEqual([plan.create.length, plan.delete.length], [0, 0]);
    assert.equal(plan.update.length, 1);
    assert.equal(plan.update[0].metadata.name, 'web-abcde');
    assert.deepEqual([plan.update[0].endpoints, plan.update[0].ports], [[], []]);
    const again = planSlices(input({ slices: [plan.update[0]] }));
    assert.deepEqual([again.create.length, again.update.length, again.delete.length], [0, 0, 0]);
  });

  it('deletes slices of a family the service dropped; skips pods on missing nodes', () => {
    const v6: EndpointSlice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-v6', namespace: 'ns' },
      addressType: 'IPv6',
    };
    const onNode = { ...pod(2), spec: { ...pod(2).spec, nodeName: 'gone' } };
    const plan = planSlices(input({ slices: [v6], pods: [pod(1), onNode] }));
    assert.deepEqual(
      plan.delete.map((s) => s.metadata.name),
      ['web-v6'],
    );
    assert.deepEqual(plan.missingNodes, ['gone']);
    assert.deepEqual(
      plan.create.flatMap((s) => (s.endpoints ?? []).map((e) => e.targetRef?.name)),
      ['p1'],
    );
  });
});
