import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import {
  persistentVolumeReferences,
  podReferences,
  podResourceClaimNames,
  sameResourceClaimStatuses,
} from './object-references.js';

const MIRROR = 'kubernetes.io/config.mirror';

function pod(spec: Record<string, unknown>, extra: Partial<ApiObject> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: 'ns', name: 'web', uid: 'u1' },
    spec: { nodeName: 'n1', ...spec },
    ...extra,
  };
}

describe('podReferences', () => {
  it('collects every secret, config map, claim and the service account once each', () => {
    const container = (suffix: string) => ({
      name: `c${suffix}`,
      env: [
        { name: 'A', valueFrom: { secretKeyRef: { name: `env-secret${suffix}`, key: 'k' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { name: `env-cm${suffix}`, key: 'k' } } },
        { name: 'C', value: 'plain' },
      ],
      envFrom: [{ secretRef: { name: `from-secret${suffix}` } }, { configMapRef: { name: `from-cm${suffix}` } }],
    });
    const refs = podReferences(
      pod({
        serviceAccountName: 'runner',
        imagePullSecrets: [{ name: 'pull' }, { name: 'pull' }],
        initContainers: [container('-init')],
        containers: [container('')],
        ephemeralContainers: [container('-debug')],
        volumes: [
          { name: 'v1', secret: { secretName: 'vol-secret' } },
          { name: 'v2', configMap: { name: 'vol-cm' } },
          {
            name: 'v3',
            projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }, {}] },
          },
          { name: 'v4', azureFile: { secretName: 'azure', shareName: 's' } },
          { name: 'v5', cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } },
          { name: 'v6', cinder: { volumeID: 'x', secretRef: { name: 'cinder' } } },
          { name: 'v7', flexVolume: { driver: 'd', secretRef: { name: 'flex' } } },
          { name: 'v8', rbd: { image: 'i', monitors: ['m'], secretRef: { name: 'rbd' } } },
          { name: 'v9', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'scaleio' } } },
          { name: 'v10', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: 'iscsi' } } },
          { name: 'v11', storageos: { volumeName: 'v', secretRef: { name: 'storageos' } } },
          { name: 'v12', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
          { name: 'v13', persistentVolumeClaim: { claimName: 'data' } },
          { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
          { name: 'v15', secret: { secretName: 'vol-secret' } },
        ],
      }),
      MIRROR,
    );
    assert.deepEqual(refs, {
      namespace: 'ns',
      name: 'web',
      uid: 'u1',
      nodeName: 'n1',
      secrets: [
        'pull',
        'from-secret-init',
        'env-secret-init',
        'from-secret',
        'env-secret',
        'from-secret-debug',
        'env-secret-debug',
        'vol-secret',
        'proj-secret',
        'azure',
        'ceph',
        'cinder',
        'flex',
        'rbd',
        'scaleio',
        'iscsi',
        'storageos',
        'csi',
      ],
      configMaps: [
        'from-cm-init',
        'env-cm-init',
        'from-cm',
        'env-cm',
        'from-cm-debug',
        'env-cm-debug',
        'vol-cm',
        'proj-cm',
      ],
      persistentVolumeClaims: ['data', 'web-scratch'],
      resourceClaims: [],
      serviceAccount: 'runner',
    });
  });

  it('a mirror pod references nothing but its node', () => {
    const refs = podReferences(
      pod(
        { serviceAccountName: 'default', volumes: [{ name: 'v', secret: { secretName: 's' } }] },
        { metadata: { namespace: 'ns', name: 'static', uid: 'u', annotations: { [MIRROR]: 'x' } } },
      ),
      MIRROR,
    );
    assert.equal(refs.nodeName, 'n1');
    assert.deepEqual(
      [refs.secrets, refs.configMaps, refs.persistentVolumeClaims, refs.resourceClaims, refs.serviceAccount],
      [[], [], [], [], ''],
    );
  });

  it('survives malformed fields', () => {
    const refs = podReferences(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'odd' },
        spec: { containers: 'no', volumes: [null, 7, { secret: 'x' }], imagePullSecrets: [{}], nodeName: 5 },
      },
      MIRROR,
    );
    assert.deepEqual([refs.nodeName, refs.secrets, refs.namespace], ['', [], '']);
  });
});

describe('podResourceClaimNames and sameResourceClaimStatuses', () => {
  const withClaims = (statuses: unknown[]) =>
    pod(
      {
        resourceClaims: [
          { name: 'gpu', resourceClaimName: 'shared-gpu' },
          { name: 'tmpl', resourceClaimTemplateName: 't' },
          { name: 'pending', resourceClaimTemplateName: 't' },
          { name: 'none', resourceClaimTemplateName: 't' },
        ],
      },
      { status: { resourceClaimStatuses: statuses } },
    );
  const statuses = [{ name: 'tmpl', resourceClaimName: 'web-tmpl-x7' }, { name: 'none' }];

  it('names given claims and generated ones from the status', () => {
    assert.deepEqual(podResourceClaimNames(withClaims(statuses)), ['shared-gpu', 'web-tmpl-x7']);
  });

  const cases: [string, unknown[], unknown[], boolean][] = [
    ['equal', statuses, statuses, true],
    ['added entry', statuses, [...statuses, { name: 'pending', resourceClaimName: 'p' }], false],
    ['other claim', statuses, [{ name: 'tmpl', resourceClaimName: 'other' }, { name: 'none' }], false],
    ['claim appears', statuses, [statuses[0], { name: 'none', resourceClaimName: 'n' }], false],
    ['both empty', [], [], true],
  ];
  for (const [name, a, b, want] of cases) {
    it(`sameResourceClaimStatuses: ${name}`, () => {
      assert.equal(sameResourceClaimStatuses(withClaims(a), withClaims(b)), want);
    });
  }
});

describe('persistentVolumeReferences', () => {
  const pv = (source: Record<string, unknown>, claimRef?: Record<string, unknown>): ApiObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv1' },
    spec: { ...source, ...(claimRef ? { claimRef } : {}) },
  });
  const claim = { namespace: 'app', name: 'data' };
  const cases: [string, Record<string, unknown>, { namespace: string; name: string }[]][] = [
    [
      'azureFile in the claim namespace',
      { azureFile: { secretName: 'az', shareName: 's' } },
      [{ namespace: 'app', name: 'az' }],
    ],
    [
      'azureFile with secretNamespace',
      { azureFile: { secretName: 'az', secretNamespace: 'vault', shareName: 's' } },
      [{ namespace: 'vault', name: 'az' }],
    ],
    [
      'cephfs defaults to the claim namespace',
      { cephfs: { secretRef: { name: 'ceph' } } },
      [{ namespace: 'app', name: 'ceph' }],
    ],
    [
      'rbd with a namespace',
      { rbd: { secretRef: { name: 'rbd', namespace: 'ops' } } },
      [{ namespace: 'ops', name: 'rbd' }],
    ],
    [
      'cinder keeps its namespace',
      { cinder: { secretRef: { name: 'c', namespace: 'os' } } },
      [{ namespace: 'os', name: 'c' }],
    ],
    [
      'csi node secrets only',
      {
        csi: {
          driver: 'd',
          volumeHandle: 'h',
          controllerPublishSecretRef: { name: 'cp', namespace: 'ctl' },
          controllerExpandSecretRef: { name: 'ce', namespace: 'ctl' },
          nodePublishSecretRef: { name: 'np', namespace: 'nodes' },
          nodeStageSecretRef: { name: 'ns', namespace: 'nodes' },
          nodeExpandSecretRef: { name: 'np', namespace: 'nodes' },
        },
      },
      [
        { namespace: 'nodes', name: 'np' },
        { namespace: 'nodes', name: 'ns' },
      ],
    ],
    ['hostPath: none', { hostPath: { path: '/x' } }, []],
  ];
  for (const [name, source, secrets] of cases) {
    it(name, () => {
      assert.deepEqual(persistentVolumeReferences(pv(source, claim)), { name: 'pv1', claim, secrets });
    });
  }

  it('an unbound volume references nothing', () => {
    assert.deepEqual(persistentVolumeReferences(pv({ cephfs: { secretRef: { name: 'x' } } })), {
      name: 'pv1',
      claim: undefined,
      secrets: [],
    });
  });
});
