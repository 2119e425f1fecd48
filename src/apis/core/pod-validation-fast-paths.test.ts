import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import { defaultPod } from './pod-defaults.js';
import type { Container, Pod, PodSpec } from './pod-types.js';
import { validatePodCreate } from './pod-validation.js';

function errors(spec: PodSpec): string[] {
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec };
  defaultPod(p);
  return validatePodCreate(p).map(formatFieldError);
}

const container = (extra: Partial<Container>): Container => ({ name: 'web', image: 'nginx', ...extra });

describe('validatePodCreate: resources', () => {
  it('reports a request above its limit in either notation, each quantity once', () => {
    assert.deepEqual(
      errors({
        containers: [
          container({
            resources: { requests: { cpu: '600m', memory: '1Gi' }, limits: { cpu: '500m', memory: '1000Mi' } },
          }),
        ],
      }),
      [
        'spec.containers[0].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit of 500m',
        'spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 1000Mi',
      ],
    );
  });

  it('compares quantities of different scales', () => {
    const spec = (request: string, limit: string): PodSpec => ({
      containers: [container({ resources: { requests: { cpu: request }, limits: { cpu: limit } } })],
    });
    assert.deepEqual(errors(spec('1', '1000m')), []);
    assert.deepEqual(errors(spec('999m', '1')), []);
    assert.deepEqual(errors(spec('1001m', '1')), [
      'spec.containers[0].resources.requests: Invalid value: "1001m": must be less than or equal to cpu limit of 1',
    ]);
  });

  it('checks names and values of limits and requests in name order', () => {
    assert.deepEqual(
      errors({
        containers: [
          container({
            resources: {
              limits: { memory: '-1', 'example.com/gpu': '1', cpu: '1' },
              requests: { 'example.com/gpu': '2', pods: '1', cpu: '1' },
            },
          }),
        ],
      }),
      // The memory request is defaulted from its limit.
      [
        'spec.containers[0].resources.limits[memory]: Invalid value: "-1": must be greater than or equal to 0',
        'spec.containers[0].resources.requests: Invalid value: "2": must be equal to example.com/gpu limit of 1',
        'spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
        'spec.containers[0].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers',
      ],
    );
  });

  it('ignores a value that is not a quantity', () => {
    assert.deepEqual(
      errors({ containers: [container({ resources: { limits: { cpu: 'lots' }, requests: { cpu: '1' } } })] }),
      [],
    );
  });
});

describe('validatePodCreate: container fields', () => {
  it('reports an invalid environment variable name', () => {
    assert.deepEqual(errors({ containers: [container({ env: [{ name: 'A', value: 'x' }, { name: '1A' }] })] }), [
      `spec.containers[0].env[1].name: Invalid value: "1A": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
    ]);
  });

  it('reports invalid ports', () => {
    assert.deepEqual(
      errors({
        containers: [
          container({
            ports: [
              { name: 'http', containerPort: 70000, protocol: 'TCP' },
              { name: 'Bad', containerPort: 80, hostPort: -1, protocol: 'TCP' },
            ],
          }),
        ],
      }),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].name: Invalid value: "Bad": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      ],
    );
  });

  it('checks mounts without devices and devices without mounts', () => {
    assert.deepEqual(
      errors({
        volumes: [{ name: 'data', emptyDir: {} }],
        containers: [
          container({
            volumeMounts: [
              { name: 'data', mountPath: '/d' },
              { name: 'nope', mountPath: '/d' },
            ],
          }),
          container({ name: 'dev', volumeDevices: [{ name: 'data', devicePath: '/dev/x' }] }),
        ],
      }),
      [
        'spec.containers[0].volumeMounts[1].name: Not found: "nope"',
        'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique',
        'spec.containers[1].volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      ],
    );
  });

  it('checks init and ephemeral containers only when there are some', () => {
    assert.deepEqual(errors({ containers: [container({})], initContainers: [], ephemeralContainers: [] }), []);
    assert.deepEqual(errors({ containers: [container({})], initContainers: [container({})] }), [
      'spec.initContainers[0].name: Duplicate value: "web"',
    ]);
  });
});

describe('validatePodCreate: volume sources', () => {
  it('reports extra sources in kube order, whatever the order of the keys', () => {
    assert.deepEqual(
      errors({
        volumes: [{ name: 'v', configMap: { name: 'c' }, secret: { secretName: 's' }, emptyDir: {} }],
        containers: [container({})],
      }),
      [
        'spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
      ],
    );
  });

  it('does not count a source set to null', () => {
    assert.deepEqual(
      errors({ volumes: [{ name: 'v', secret: null, nfs: { server: 'h', path: 'x' } }], containers: [container({})] }),
      ['spec.volumes[0].nfs.path: Invalid value: "x": must be an absolute path'],
    );
  });
});

describe('validatePodCreate: values checked without writing their paths', () => {
  it('writes the path of each invalid value, and only then', () => {
    assert.deepEqual(
      errors({
        containers: [
          container({
            ports: [
              { name: 'http', containerPort: 80 },
              { name: 'http', containerPort: 81 },
              { name: 'a--b', containerPort: 70000 },
            ],
            env: [{ name: '1BAD' }, { name: '..x' }, { name: 'OK', valueFrom: {} }],
            readinessProbe: { httpGet: { path: '/h', port: 'NOT_A_NAME' } },
            securityContext: { runAsUser: -1 },
          }),
        ],
        securityContext: { fsGroup: -2 },
        runtimeClassName: '',
        tolerations: [{ key: 'bad key', operator: 'Exists', effect: 'Bogus' }],
      }),
      [
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
        'spec.containers[0].ports[2].name: Invalid value: "a--b": must not contain consecutive hyphens',
        'spec.containers[0].ports[2].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        "spec.containers[0].env[0].name: Invalid value: \"1BAD\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
        'spec.containers[0].env[1].name: Invalid value: "..x": must not start with \'..\'',
        'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        'spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
        'spec.containers[0].readinessProbe.httpGet.port: Invalid value: "NOT_A_NAME": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.securityContext.fsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive',
        "spec.runtimeClassName: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.tolerations[0].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.tolerations[0].effect: Unsupported value: "Bogus": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    );
  });
});
