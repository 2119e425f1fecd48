import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultPod, defaultPodSpec, defaultPodTemplateSpec, defaultPullPolicy, imageTag } from './pod-defaults.js';
import { podQOSClass } from './pod-qos.js';
import type { Pod, PodSpec, PodTemplateSpec } from './pod-types.js';

describe('image pull policy default', () => {
  const cases: [string, string | undefined, string][] = [
    ['nginx', 'latest', 'Always'],
    ['nginx:latest', 'latest', 'Always'],
    ['nginx:1.27', '1.27', 'IfNotPresent'],
    ['localhost:5000/nginx', 'latest', 'Always'],
    ['localhost:5000/nginx:v2', 'v2', 'IfNotPresent'],
    ['nginx@sha256:0123', undefined, 'IfNotPresent'],
    ['registry.io/a/b:x@sha256:0123', 'x', 'IfNotPresent'],
  ];
  for (const [image, tag, policy] of cases) {
    it(`${image} → ${policy}`, () => {
      assert.equal(imageTag(image), tag);
      assert.equal(defaultPullPolicy(image), policy);
    });
  }
});

describe('defaultPodSpec', () => {
  it('applies kube v1.32 pod spec, container, port, probe and volume defaults', () => {
    const spec: PodSpec = {
      containers: [
        {
          name: 'c',
          image: 'nginx',
          ports: [{ containerPort: 80 }],
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { grpc: { port: 9000 } },
        },
      ],
      initContainers: [{ name: 'i', image: 'busybox:1.36' }],
      volumes: [
        { name: 'e' },
        { name: 's', secret: { secretName: 'x' } },
        { name: 'h', hostPath: { path: '/tmp' } },
        { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
      ],
    };
    defaultPodSpec(spec);
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.restartPolicy, 'Always');
    assert.deepEqual(spec.securityContext, {});
    assert.equal(spec.terminationGracePeriodSeconds, 30);
    assert.equal(spec.schedulerName, 'default-scheduler');
    assert.equal(spec.enableServiceLinks, undefined, 'enableServiceLinks is a Pod default, not a PodSpec one');
    const [c] = spec.containers ?? [];
    assert.equal(c.imagePullPolicy, 'Always');
    assert.equal(c.terminationMessagePath, '/dev/termination-log');
    assert.equal(c.terminationMessagePolicy, 'File');
    assert.deepEqual(c.resources, {});
    assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.equal(c.env?.[0].valueFrom?.fieldRef?.apiVersion, 'v1');
    assert.deepEqual(c.livenessProbe, {
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(c.readinessProbe?.grpc, { port: 9000, service: '' });
    assert.equal(spec.initContainers?.[0].imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(spec.volumes, [
      { name: 'e', emptyDir: {} },
      { name: 's', secret: { secretName: 'x', defaultMode: 420 } },
      { name: 'h', hostPath: { path: '/tmp', type: '' } },
      {
        name: 'p',
        projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] },
      },
    ]);
  });

  it('keeps what is set and is idempotent', () => {
    const spec: PodSpec = {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      containers: [
        { name: 'c', image: 'x', imagePullPolicy: 'Never', ports: [{ containerPort: 53, protocol: 'UDP' }] },
      ],
    };
    defaultPodSpec(spec);
    const once = structuredClone(spec);
    defaultPodSpec(spec);
    assert.deepEqual(spec, once);
    assert.equal(spec.restartPolicy, 'Never');
    assert.equal(spec.terminationGracePeriodSeconds, 0);
    assert.equal(spec.containers?.[0].imagePullPolicy, 'Never');
    assert.equal(spec.containers?.[0].ports?.[0].protocol, 'UDP');
  });

  it('keeps the deprecated serviceAccount in step with serviceAccountName', () => {
    const old: PodSpec = { serviceAccount: 'builder', containers: [] };
    defaultPodSpec(old);
    assert.equal(old.serviceAccountName, 'builder');
    assert.equal(old.serviceAccount, 'builder');
    const both: PodSpec = { serviceAccount: 'a', serviceAccountName: 'b', containers: [] };
    defaultPodSpec(both);
    assert.equal(both.serviceAccount, 'b');
  });

  it('defaults a template spec like a pod spec', () => {
    const t: PodTemplateSpec = {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c', image: 'x:1' }] },
    };
    defaultPodTemplateSpec(t);
    assert.equal(t.spec?.containers?.[0].imagePullPolicy, 'IfNotPresent');
  });
});

describe('defaultPod', () => {
  it('requests what containers limit, enables service links, maps host-network ports', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'c',
            image: 'x',
            ports: [{ containerPort: 8080 }],
            resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } },
          },
        ],
      },
    };
    defaultPod(pod);
    const c = pod.spec?.containers?.[0];
    assert.deepEqual(c?.resources?.requests, { cpu: '500m', memory: '1Gi' });
    assert.equal(pod.spec?.enableServiceLinks, true);
    assert.equal(c?.ports?.[0].hostPort, 8080);
  });
});

describe('podQOSClass', () => {
  const pod = (...resources: Record<string, Record<string, string>>[]): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {},
    spec: { containers: resources.map((r, i) => ({ name: `c${i}`, resources: r })) },
  });
  const cases: [string, Pod, string][] = [
    ['no resources', pod({}), 'BestEffort'],
    ['only non-compute resources', pod({ limits: { 'ephemeral-storage': '1Gi' } }), 'BestEffort'],
    [
      'equal requests and limits',
      pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1Gi' } }),
      'Guaranteed',
    ],
    [
      'requests below limits',
      pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } }),
      'Burstable',
    ],
    ['only cpu limited', pod({ limits: { cpu: '1' }, requests: { cpu: '1' } }), 'Burstable'],
    [
      'one container without limits',
      pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }, {}),
      'Burstable',
    ],
    ['zero requests do not count', pod({ requests: { cpu: '0' } }), 'BestEffort'],
  ];
  for (const [name, p, want] of cases) {
    it(name, () => {
      assert.equal(podQOSClass(p), want);
    });
  }
});
