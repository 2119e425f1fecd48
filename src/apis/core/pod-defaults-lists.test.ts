import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultPod } from './pod-defaults.js';
import type { Pod } from './pod-types.js';

type Item = Record<string, unknown>;
interface Spec {
  containers: [Item & { ports: unknown[]; env: unknown[] }, unknown];
  ephemeralContainers: Item[];
  initContainers: (Item & { ports: Item[] })[];
  volumes: Item[];
}

// The list defaults (containers of every kind, ports, env, volumes and their items): objects in a
// list are defaulted, anything else in it is left for validation.

describe('defaultPod: lists', () => {
  it('defaults the objects of each list and leaves other items alone', () => {
    const pod = {
      spec: {
        containers: [
          { name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }, 7], env: [null, { name: 'E' }] },
          'x',
        ],
        ephemeralContainers: [{ name: 'd', image: 'busybox' }],
        volumes: [
          { name: 'nothing', secret: null },
          {
            name: 'down',
            downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'metadata.name' } }, 'odd'] },
          },
          {
            name: 'proj',
            projected: {
              sources: [
                { downwardAPI: { items: [{ path: 'q', fieldRef: { fieldPath: 'metadata.uid' } }] } },
                { serviceAccountToken: { path: 't', expirationSeconds: 600 } },
                null,
              ],
            },
          },
        ],
      },
    } as unknown as Pod;
    defaultPod(pod);
    const spec = pod.spec as unknown as Spec;
    assert.deepEqual(spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }, 7]);
    assert.deepEqual(spec.containers[0].env, [null, { name: 'E' }]);
    assert.equal(spec.containers[1], 'x');
    assert.equal(spec.ephemeralContainers[0]!.imagePullPolicy, 'Always');
    assert.equal(spec.ephemeralContainers[0]!.terminationMessagePolicy, 'File');
    assert.deepEqual(spec.volumes[0], { name: 'nothing', secret: null, emptyDir: {} });
    assert.deepEqual(spec.volumes[1]!.downwardAPI, {
      defaultMode: 420,
      items: [{ path: 'p', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }, 'odd'],
    });
    assert.deepEqual(spec.volumes[2]!.projected, {
      defaultMode: 420,
      sources: [
        { downwardAPI: { items: [{ path: 'q', fieldRef: { fieldPath: 'metadata.uid', apiVersion: 'v1' } }] } },
        { serviceAccountToken: { path: 't', expirationSeconds: 600 } },
        null,
      ],
    });
  });

  it('gives init containers the requests they limit, and with the host network every port its host port', () => {
    const pod = {
      spec: {
        hostNetwork: true,
        containers: [{ name: 'c', image: 'a:1', ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 9 }] }],
        initContainers: [
          { name: 'i', image: 'a:1', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 5 }] },
        ],
      },
    } as unknown as Pod;
    defaultPod(pod);
    const spec = pod.spec as unknown as Spec;
    assert.deepEqual(
      spec.containers[0].ports.map((p) => (p as Item).hostPort),
      [80, 9],
    );
    assert.deepEqual(spec.initContainers[0]!.resources, { limits: { cpu: '1' }, requests: { cpu: '1' } });
    assert.equal(spec.initContainers[0]!.ports[0]!.hostPort, 5);
  });
});
