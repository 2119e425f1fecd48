import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { endpointsTableColumns, formatEndpoints, serviceExternalIP, serviceTableColumns } from './service-columns.js';
import { defaultEndpoints } from './service-defaults.js';
import { serviceFieldLabels } from './service-field-labels.js';
import type { Endpoints, Service } from './service-types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const schema: Schema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { type: { description: 'the type' } } } },
};

function svc(spec: Service['spec'], status?: Service['status']): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec,
    status,
  };
}

describe('Service columns', () => {
  const columns = serviceTableColumns(schema);
  it('are kube’s, with the wide Selector', () => {
    assert.deepEqual(
      columns.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Type', 0],
        ['Cluster-IP', 0],
        ['External-IP', 0],
        ['Port(s)', 0],
        ['Age', 0],
        ['Selector', 1],
      ],
    );
    assert.equal(columns.columnDefinitions[1].description, 'the type');
  });
  const cases: [string, Service, unknown[]][] = [
    [
      'ClusterIP',
      svc({
        type: 'ClusterIP',
        clusterIPs: ['10.0.0.1'],
        ports: [{ port: 443, protocol: 'TCP' }],
        selector: { b: '2', a: '1' },
      }),
      ['web', 'ClusterIP', '10.0.0.1', '<none>', '443/TCP', '60m', 'a=1,b=2'],
    ],
    [
      'NodePort with external IPs',
      svc({
        type: 'NodePort',
        clusterIPs: ['10.0.0.2'],
        externalIPs: ['1.2.3.4'],
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
      }),
      ['web', 'NodePort', '10.0.0.2', '1.2.3.4', '80:30080/TCP', '60m', '<none>'],
    ],
    [
      'pending LoadBalancer without ports',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.0.0.3'] }),
      ['web', 'LoadBalancer', '10.0.0.3', '<pending>', '<none>', '60m', '<none>'],
    ],
    [
      'ExternalName',
      svc({ type: 'ExternalName', externalName: 'db.example.com' }),
      ['web', 'ExternalName', '<none>', 'db.example.com', '<none>', '60m', '<none>'],
    ],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.deepEqual(columns.cells(obj, NOW), want));
  it('load balancer addresses are sorted, unique, before external IPs', () => {
    const lb = svc(
      { type: 'LoadBalancer', externalIPs: ['9.9.9.9'] },
      { loadBalancer: { ingress: [{ ip: '5.5.5.5' }, { hostname: 'lb.example.com' }, { ip: '5.5.5.5' }] } },
    );
    assert.equal(serviceExternalIP(lb), '5.5.5.5,lb.example.com,9.9.9.9');
  });
});

describe('Endpoints', () => {
  it('default port protocols to TCP', () => {
    const ep: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {},
      subsets: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }],
    };
    defaultEndpoints(ep);
    assert.deepEqual(ep.subsets?.[0].ports, [
      { port: 80, protocol: 'TCP' },
      { port: 53, protocol: 'UDP' },
    ]);
  });
  const ep = (subsets: Endpoints['subsets']): Endpoints => ({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'e' },
    subsets,
  });
  const cases: [string, Endpoints, string][] = [
    ['none', ep(undefined), '<none>'],
    [
      'host:port pairs',
      ep([{ addresses: [{ ip: '10.1.0.1' }, { ip: 'fd00::1' }], ports: [{ port: 80 }] }]),
      '10.1.0.1:80,[fd00::1]:80',
    ],
    ['headless without ports', ep([{ addresses: [{ ip: '10.1.0.1' }] }]), '10.1.0.1'],
    [
      'more than three',
      ep([{ addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }], ports: [{ port: 80 }, { port: 81 }, { port: 82 }] }]),
      '10.1.0.1:80,10.1.0.2:80,10.1.0.1:81 + 3 more...',
    ],
  ];
  for (const [name, obj, want] of cases) it(`formats ${name}`, () => assert.equal(formatEndpoints(obj), want));
  it('columns are Name, Endpoints, Age', () => {
    assert.deepEqual(
      endpointsTableColumns(schema).columnDefinitions.map((c) => c.name),
      ['Name', 'Endpoints', 'Age'],
    );
  });
});

describe('Service field labels', () => {
  it('select by cluster IP and type', () => {
    const obj = svc({ type: 'NodePort', clusterIP: '10.0.0.9' }) as ApiObject;
    obj.metadata.namespace = 'ns';
    assert.deepEqual(serviceFieldLabels.fieldSet(obj), {
      'metadata.name': 'web',
      'metadata.namespace': 'ns',
      'spec.clusterIP': '10.0.0.9',
      'spec.type': 'NodePort',
    });
    assert.equal(serviceFieldLabels.unsupportedMessage('spec.ports'), 'field label not supported: spec.ports');
  });
});
