import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import { defaultPod, defaultPodTemplateSpec } from './pod-defaults.js';
import { validatePodSpec, validatePodTemplateSpec } from './pod-spec-validation.js';
import type { Pod, PodSpec } from './pod-types.js';
import {
  validatePodCreate,
  validatePodEphemeralContainersUpdate,
  validatePodStatusUpdate,
  validatePodUpdate,
} from './pod-validation.js';

function pod(spec: PodSpec, extra: Partial<Pod> = {}): Pod {
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec, ...extra };
  defaultPod(p);
  return p;
}

const basic = (): PodSpec => ({ containers: [{ name: 'web', image: 'nginx' }] });

function specErrors(mutate: (s: PodSpec) => void): string[] {
  const p = pod(basic());
  mutate(p.spec ?? {});
  return validatePodCreate(p).map(formatFieldError);
}

describe('validatePodSpec', () => {
  it('accepts a defaulted minimal pod', () => {
    assert.deepEqual(validatePodCreate(pod(basic())), []);
  });

  const cases: { name: string; mutate: (s: PodSpec) => void; want: string[] }[] = [
    { name: 'no containers', mutate: (s) => (s.containers = []), want: ['spec.containers: Required value'] },
    {
      name: 'container name and image missing',
      mutate: (s) => (s.containers = [{ imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }]),
      want: ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value'],
    },
    {
      name: 'duplicate container names, also across init containers',
      mutate: (s) => {
        s.containers?.push(structuredClone(s.containers[0]));
        s.initContainers = [structuredClone(s.containers?.[0] ?? {})];
      },
      want: ['spec.containers[1].name: Duplicate value: "web"', 'spec.initContainers[0].name: Duplicate value: "web"'],
    },
    {
      name: 'bad container name',
      mutate: (s) => {
        if (s.containers) s.containers[0].name = 'Web_1';
      },
      want: [
        "spec.containers[0].name: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'port ranges, names and protocols',
      mutate: (s) => {
        if (s.containers) {
          s.containers[0].ports = [
            { containerPort: 70000, protocol: 'TCP' },
            { name: 'http', containerPort: 80, hostPort: -1, protocol: 'ICMP' },
            { name: 'http', containerPort: 81, protocol: 'TCP' },
          ];
        }
      },
      want: [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[2].name: Duplicate value: "http"',
      ],
    },
    {
      name: 'enums: restart, DNS and pull policies',
      mutate: (s) => {
        s.restartPolicy = 'Sometimes';
        s.dnsPolicy = 'Google';
        if (s.containers) s.containers[0].imagePullPolicy = 'Maybe';
      },
      want: [
        'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    },
    {
      name: 'requests above limits, bad resource names, negative quantities',
      mutate: (s) => {
        if (s.containers) {
          s.containers[0].resources = {
            limits: { cpu: '500m', memory: '-1' },
            requests: { cpu: '1', 'foo/bar': '1', disk: '1' },
          };
        }
      },
      want: [
        'spec.containers[0].resources.limits[memory]: Invalid value: "-1": must be greater than or equal to 0',
        'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
        'spec.containers[0].resources.requests[disk]: Invalid value: "disk": must be a standard resource type or fully qualified',
        'spec.containers[0].resources.requests[disk]: Invalid value: "disk": must be a standard resource for containers',
        'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
      ],
    },
    {
      name: 'volume names unique and mounts referring to volumes',
      mutate: (s) => {
        s.volumes = [
          { name: 'data', emptyDir: {} },
          { name: 'data', emptyDir: {} },
          { name: 'two', emptyDir: {}, hostPath: { path: '/x', type: '' } },
        ];
        if (s.containers) {
          s.containers[0].volumeMounts = [
            { name: 'data', mountPath: '/data' },
            { name: 'missing', mountPath: '/data' },
          ];
        }
      },
      want: [
        'spec.volumes[1].name: Duplicate value: "data"',
        'spec.volumes[2].hostPath: Forbidden: may not specify more than 1 volume type',
        'spec.containers[0].volumeMounts[1].name: Not found: "missing"',
        'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      ],
    },
    {
      name: 'node selector labels and tolerations',
      mutate: (s) => {
        s.nodeSelector = { 'bad key!': 'v' };
        s.tolerations = [{ operator: 'Equal', value: 'x' }];
      },
      want: [
        "spec.nodeSelector: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    },
    {
      name: 'ephemeral containers cannot be set on create',
      mutate: (s) => {
        s.ephemeralContainers = [
          { name: 'debug', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' },
        ];
      },
      want: ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    },
    {
      name: 'probes need a handler; liveness success threshold 1',
      mutate: (s) => {
        if (s.containers)
          s.containers[0].livenessProbe = {
            successThreshold: 2,
            timeoutSeconds: 1,
            periodSeconds: 1,
            failureThreshold: 1,
          };
      },
      want: [
        'spec.containers[0].livenessProbe: Required value: must specify a handler type',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(specErrors(c.mutate), c.want);
    });
  }

  it('lets templates leave host ports unset with hostNetwork, not pods', () => {
    const spec: PodSpec = {
      hostNetwork: true,
      containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80 }] }],
    };
    const t = { spec: structuredClone(spec) };
    defaultPodTemplateSpec(t);
    assert.deepEqual(validatePodTemplateSpec(t, 'spec.template'), []);
    const p = pod(structuredClone(spec));
    if (p.spec?.containers?.[0].ports?.[0]) p.spec.containers[0].ports[0].hostPort = 81;
    assert.deepEqual(validatePodCreate(p).map(formatFieldError), [
      'spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true',
    ]);
  });

  it('reports template paths under the given prefix', () => {
    const t = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } };
    defaultPodTemplateSpec(t);
    assert.deepEqual(validatePodTemplateSpec(t, 'spec.template').map(formatFieldError), [
      'spec.template.spec.containers[0].image: Required value',
    ]);
  });

  it('requires the grace period when called on an undefaulted spec', () => {
    const errs = validatePodSpec({ containers: [] }, 'spec').map(formatFieldError);
    assert.ok(errs.includes('spec.terminationGracePeriodSeconds: Required value'));
    assert.ok(errs.includes('spec.restartPolicy: Required value'));
  });
});

describe('validatePodUpdate', () => {
  const message =
    'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

  it('allows image, activeDeadlineSeconds and added tolerations', () => {
    const old = pod(basic());
    const next = structuredClone(old);
    if (next.spec?.containers) next.spec.containers[0].image = 'nginx:2';
    if (next.spec) next.spec.activeDeadlineSeconds = 30;
    next.spec?.tolerations?.push({ key: 'k', operator: 'Exists' });
    if (next.spec) next.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
    assert.deepEqual(validatePodUpdate(next, old), []);
  });

  it('refuses other spec changes with kube v1.32 message', () => {
    const old = pod(basic());
    const next = structuredClone(old);
    if (next.spec) next.spec.restartPolicy = 'Never';
    const errs = validatePodUpdate(next, old);
    assert.equal(errs.length, 1);
    assert.equal(errs[0].field, 'spec');
    assert.ok(errs[0].message.startsWith(message), errs[0].message);
    assert.ok(errs[0].message.includes('RestartPolicy'));
  });

  it('refuses adding containers and raising activeDeadlineSeconds', () => {
    const old = pod({ ...basic(), activeDeadlineSeconds: 10 });
    const more = structuredClone(old);
    more.spec?.containers?.push({ name: 'b', image: 'x' });
    assert.deepEqual(validatePodUpdate(more, old).map(formatFieldError).slice(-1), [
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
    const raised = structuredClone(old);
    if (raised.spec) raised.spec.activeDeadlineSeconds = 20;
    assert.deepEqual(validatePodUpdate(raised, old).map(formatFieldError), [
      'spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value',
    ]);
  });
});

describe('validatePodStatusUpdate', () => {
  it('checks pod IPs, the node name and the QoS class', () => {
    const old = pod(basic(), { status: { phase: 'Pending', qosClass: 'BestEffort' } });
    const next = structuredClone(old);
    next.status = {
      phase: 'Running',
      qosClass: 'Burstable',
      podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: 'x' }],
    };
    if (next.spec) next.spec.nodeName = 'n1';
    assert.deepEqual(validatePodStatusUpdate(next, old).map(formatFieldError), [
      'status.nodeName: Forbidden: may not be changed directly',
      'status.qosClass: Invalid value: "Burstable": field is immutable',
      'status.podIPs[2]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.podIPs: Invalid value: [{"ip":"10.0.0.1"},{"ip":"10.0.0.2"},{"ip":"x"}]: may specify no more than one IP for each IP family',
    ]);
  });

  it('keeps terminated containers terminated unless the pod restarts them', () => {
    const old = pod(
      { ...basic(), restartPolicy: 'Never' },
      {
        status: { containerStatuses: [{ name: 'web', state: { terminated: { exitCode: 0 } } }] },
      },
    );
    const next = structuredClone(old);
    next.status = { containerStatuses: [{ name: 'web', state: { running: {} } }] };
    assert.deepEqual(validatePodStatusUpdate(next, old).map(formatFieldError), [
      'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state',
    ]);
  });
});

describe('validatePodEphemeralContainersUpdate', () => {
  it('allows adding, refuses changing or removing ephemeral containers', () => {
    const old = pod(basic());
    const debug = {
      name: 'debug',
      image: 'busybox',
      imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File',
      resources: {},
    };
    const added = structuredClone(old);
    if (added.spec) added.spec.ephemeralContainers = [structuredClone(debug)];
    assert.deepEqual(validatePodEphemeralContainersUpdate(added, old), []);
    const changed = structuredClone(added);
    if (changed.spec?.ephemeralContainers) changed.spec.ephemeralContainers[0].image = 'alpine';
    assert.deepEqual(
      validatePodEphemeralContainersUpdate(changed, added).map((e) => e.message),
      ['Forbidden: existing ephemeral containers "debug" may not be changed\n'],
    );
    const withPorts = structuredClone(old);
    if (withPorts.spec)
      withPorts.spec.ephemeralContainers = [
        { ...structuredClone(debug), ports: [{ containerPort: 80, protocol: 'TCP' }] },
      ];
    assert.deepEqual(validatePodEphemeralContainersUpdate(withPorts, old).map(formatFieldError), [
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });
});
