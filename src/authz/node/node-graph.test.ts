import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { graphPopulator } from './graph-populator.js';
import { type GraphKind, NodeGraph } from './node-graph.js';
import type { PodReferences } from './object-references.js';

function podRefs(over: Partial<PodReferences> & { name: string; nodeName: string }): PodReferences {
  return {
    namespace: 'app',
    uid: `uid-${over.name}`,
    secrets: [],
    configMaps: [],
    persistentVolumeClaims: [],
    resourceClaims: [],
    serviceAccount: '',
    ...over,
  };
}

type Probe = [GraphKind, string, string, string, boolean];

function check(g: NodeGraph, probes: Probe[]): void {
  for (const [kind, ns, name, node, want] of probes) {
    assert.equal(g.hasPath(kind, ns, name, node), want, `${kind} ${ns}/${name} on ${node}`);
  }
}

describe('NodeGraph', () => {
  it('relates a bound pod and what it references to its node only', () => {
    const g = new NodeGraph();
    g.setPod(
      podRefs({
        name: 'web',
        nodeName: 'n1',
        secrets: ['tls'],
        configMaps: ['conf'],
        persistentVolumeClaims: ['data'],
        resourceClaims: ['gpu'],
        serviceAccount: 'runner',
      }),
    );
    check(g, [
      ['pod', 'app', 'web', 'n1', true],
      ['pod', 'app', 'web', 'n2', false],
      ['secret', 'app', 'tls', 'n1', true],
      ['secret', 'app', 'tls', 'n2', false],
      ['secret', 'other', 'tls', 'n1', false],
      ['configmap', 'app', 'conf', 'n1', true],
      ['pvc', 'app', 'data', 'n1', true],
      ['resourceclaim', 'app', 'gpu', 'n1', true],
      ['serviceaccount', 'app', 'runner', 'n1', true],
      ['serviceaccount', 'app', 'default', 'n1', false],
      ['secret', 'app', 'conf', 'n1', false],
    ]);
  });

  it('keeps a shared object while any pod on the node uses it', () => {
    const g = new NodeGraph();
    g.setPod(podRefs({ name: 'a', nodeName: 'n1', secrets: ['shared'] }));
    g.setPod(podRefs({ name: 'b', nodeName: 'n1', secrets: ['shared'] }));
    g.setPod(podRefs({ name: 'c', nodeName: 'n2', secrets: ['shared'] }));
    g.deletePod('app', 'a');
    check(g, [
      ['secret', 'app', 'shared', 'n1', true],
      ['secret', 'app', 'shared', 'n2', true],
    ]);
    g.deletePod('app', 'b');
    check(g, [
      ['secret', 'app', 'shared', 'n1', false],
      ['secret', 'app', 'shared', 'n2', true],
    ]);
    g.deletePod('app', 'c');
    assert.equal(g.sizes().secret, 0);
    assert.equal(g.sizes().pod, 0);
  });

  it('a pod recorded again under its name replaces the old record; an unbound one removes it', () => {
    const g = new NodeGraph();
    g.setPod(podRefs({ name: 'web', nodeName: 'n1', secrets: ['old'] }));
    g.setPod(podRefs({ name: 'web', nodeName: 'n2', secrets: ['new'] }));
    check(g, [
      ['pod', 'app', 'web', 'n1', false],
      ['pod', 'app', 'web', 'n2', true],
      ['secret', 'app', 'old', 'n1', false],
      ['secret', 'app', 'old', 'n2', false],
      ['secret', 'app', 'new', 'n2', true],
    ]);
    g.setPod(podRefs({ name: 'web', nodeName: '' }));
    check(g, [
      ['pod', 'app', 'web', 'n2', false],
      ['secret', 'app', 'new', 'n2', false],
    ]);
  });

  it('relates a PV and its secrets through the claim a pod uses', () => {
    const g = new NodeGraph();
    g.setPersistentVolume({
      name: 'pv1',
      claim: { namespace: 'app', name: 'data' },
      secrets: [{ namespace: 'storage', name: 'ceph-key' }],
    });
    check(g, [
      ['pv', '', 'pv1', 'n1', false],
      ['secret', 'storage', 'ceph-key', 'n1', false],
    ]);
    g.setPod(podRefs({ name: 'db', nodeName: 'n1', persistentVolumeClaims: ['data'] }));
    check(g, [
      ['pv', '', 'pv1', 'n1', true],
      ['pv', '', 'pv1', 'n2', false],
      ['secret', 'storage', 'ceph-key', 'n1', true],
      ['secret', 'storage', 'ceph-key', 'n2', false],
    ]);
    // Bound to another claim: the path is gone.
    g.setPersistentVolume({ name: 'pv1', claim: { namespace: 'app', name: 'logs' }, secrets: [] });
    check(g, [
      ['pv', '', 'pv1', 'n1', false],
      ['secret', 'storage', 'ceph-key', 'n1', false],
    ]);
    g.setPersistentVolume({ name: 'pv1', claim: { namespace: 'app', name: 'data' }, secrets: [] });
    g.deletePod('app', 'db');
    check(g, [['pv', '', 'pv1', 'n1', false]]);
    g.setPod(podRefs({ name: 'db', nodeName: 'n1', persistentVolumeClaims: ['data'] }));
    g.deletePersistentVolume('pv1');
    check(g, [
      ['pv', '', 'pv1', 'n1', false],
      ['pvc', 'app', 'data', 'n1', true],
    ]);
  });

  it('relates VolumeAttachments and ResourceSlices to the node they name', () => {
    const g = new NodeGraph();
    g.setVolumeAttachment('va1', 'n1');
    g.setResourceSlice('slice1', 'n2');
    check(g, [
      ['volumeattachment', '', 'va1', 'n1', true],
      ['volumeattachment', '', 'va1', 'n2', false],
      ['resourceslice', '', 'slice1', 'n2', true],
    ]);
    g.setVolumeAttachment('va1', 'n2');
    g.setResourceSlice('slice1', '');
    check(g, [
      ['volumeattachment', '', 'va1', 'n1', false],
      ['volumeattachment', '', 'va1', 'n2', true],
      ['resourceslice', '', 'slice1', 'n2', false],
    ]);
    g.deleteVolumeAttachment('va1');
    check(g, [['volumeattachment', '', 'va1', 'n2', false]]);
  });
});

describe('graphPopulator', () => {
  const MIRROR = 'kubernetes.io/config.mirror';
  const pod = (name: string, uid: string, nodeName: string, secret: string): ApiObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: 'app', name, uid },
    spec: { nodeName, volumes: [{ name: 'v', secret: { secretName: secret } }] },
  });

  it('records pods once bound and ignores updates that cannot change references', () => {
    const g = new NodeGraph();
    const p = graphPopulator(g, { mirrorPodAnnotation: MIRROR });
    p.pods.onAdd(pod('web', 'u1', '', 's1'));
    check(g, [['secret', 'app', 's1', 'n1', false]]);
    p.pods.onUpdate(pod('web', 'u1', '', 's1'), pod('web', 'u1', 'n1', 's1'));
    check(g, [['secret', 'app', 's1', 'n1', true]]);
    // Same node and uid: references are immutable, the update is not applied.
    p.pods.onUpdate(pod('web', 'u1', 'n1', 's1'), pod('web', 'u1', 'n1', 'changed'));
    check(g, [
      ['secret', 'app', 's1', 'n1', true],
      ['secret', 'app', 'changed', 'n1', false],
    ]);
    // Another pod under the same name (a relist after delete and create): applied.
    p.pods.onUpdate(pod('web', 'u1', 'n1', 's1'), pod('web', 'u2', 'n2', 's2'));
    check(g, [
      ['secret', 'app', 's1', 'n1', false],
      ['secret', 'app', 's2', 'n2', true],
    ]);
    p.pods.onUpdate(pod('web', 'u2', 'n2', 's2'), pod('web', 'u3', '', 's3'));
    check(g, [['pod', 'app', 'web', 'n2', false]]);
    p.pods.onAdd(pod('web', 'u4', 'n1', 's1'));
    p.pods.onDelete(pod('web', 'u4', 'n1', 's1'));
    check(g, [['secret', 'app', 's1', 'n1', false]]);
  });

  it('applies PVs on every change, attachments when their node changes, slices by spec.nodeName', () => {
    const g = new NodeGraph();
    const p = graphPopulator(g, { mirrorPodAnnotation: MIRROR });
    p.pods.onAdd({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'app', name: 'db', uid: 'u' },
      spec: { nodeName: 'n1', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const pv = (claim: string): ApiObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: {
        claimRef: { namespace: 'app', name: claim },
        csi: { nodeStageSecretRef: { name: 'k', namespace: 'app' } },
      },
    });
    p.persistentVolumes.onAdd(pv('other'));
    check(g, [['pv', '', 'pv1', 'n1', false]]);
    p.persistentVolumes.onUpdate(pv('other'), pv('data'));
    check(g, [
      ['pv', '', 'pv1', 'n1', true],
      ['secret', 'app', 'k', 'n1', true],
    ]);
    p.persistentVolumes.onDelete(pv('data'));
    check(g, [['secret', 'app', 'k', 'n1', false]]);

    const va = (node: string): ApiObject => ({
      apiVersion: 'storage/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va1' },
      spec: { nodeName: node },
    });
    p.volumeAttachments.onAdd(va('n1'));
    p.volumeAttachments.onUpdate(va('n1'), va('n2'));
    check(g, [['volumeattachment', '', 'va1', 'n2', true]]);
    p.volumeAttachments.onDelete(va('n2'));
    check(g, [['volumeattachment', '', 'va1', 'n2', false]]);

    const slice: ApiObject = {
      apiVersion: 'resource/v1beta1',
      kind: 'ResourceSlice',
      metadata: { name: 's' },
      spec: { nodeName: 'n3' },
    };
    p.resourceSlices.onAdd(slice);
    check(g, [['resourceslice', '', 's', 'n3', true]]);
    p.resourceSlices.onDelete(slice);
    check(g, [['resourceslice', '', 's', 'n3', false]]);
  });
});
