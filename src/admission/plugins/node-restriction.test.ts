import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import { AdmissionChain } from '../admission-chain.js';
import { nodeRestriction } from './node-restriction.js';
import { forbiddenLabels, modifiedLabels, nodeLabelPolicy, semanticEqual } from './node-restriction-rules.js';

const signal = new AbortController().signal;
const KUBE = apiDomain('k8s.io');
const ORCH = apiDomain('orch.io');
const node1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const MIRROR = 'kubernetes.io/config.mirror';

function obj(kind: string, meta: Record<string, unknown>, rest: Record<string, unknown> = {}): ApiObject {
  return { apiVersion: 'v1', kind, metadata: meta, ...rest };
}

const pods: Record<string, ApiObject> = {
  'default/mine': obj('Pod', { name: 'mine', namespace: 'default', uid: 'pod-uid-1' }, { spec: { nodeName: 'n1' } }),
  'default/theirs': obj(
    'Pod',
    { name: 'theirs', namespace: 'default', uid: 'pod-uid-2' },
    { spec: { nodeName: 'n2' } },
  ),
};
const nodes: Record<string, ApiObject> = { n1: obj('Node', { name: 'n1', uid: 'node-uid-1' }) };

function mirrorPod(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): ApiObject {
  return obj(
    'Pod',
    {
      name: 'static',
      namespace: 'default',
      annotations: { [MIRROR]: 'x' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1', controller: true }],
      ...meta,
    },
    { spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...spec } },
  );
}

interface Req {
  readonly group?: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly op: Operation;
  readonly name?: string;
  readonly namespace?: string;
  readonly object?: ApiObject;
  readonly old?: ApiObject;
  readonly user?: UserInfo;
}

function attrs(r: Req): AdmissionAttributes {
  return {
    kind: { group: r.group ?? '', version: 'v1', kind: 'X' },
    resource: { group: r.group ?? '', version: 'v1', resource: r.resource },
    subresource: r.subresource ?? '',
    namespace: r.namespace ?? '',
    name: r.name ?? '',
    operation: r.op,
    object: r.object,
    oldObject: r.old,
    user: r.user ?? node1,
    dryRun: false,
    options: undefined,
    warnings: { add: () => {} },
  };
}

function chain(domain = KUBE): AdmissionChain {
  return new AdmissionChain([
    nodeRestriction({
      domain,
      objects: {
        pod: async (ns, name) => pods[`${ns}/${name}`],
        node: async (name) => nodes[name],
      },
    }),
  ]);
}

/** Undefined when admitted; else the rejection's code and message. */
async function outcome(r: Req, domain = KUBE): Promise<{ code: number; message: string } | undefined> {
  try {
    await chain(domain).admit(attrs(r), signal);
    return undefined;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return { code: e.code, message: e.message };
  }
}

const forbidden = (message: string) => ({ code: 403, message });

describe('NodeRestriction admission', () => {
  const node = (name: string, meta: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) =>
    obj('Node', { name, ...meta }, { spec });
  const cases: { name: string; req: Req; want: { code: number; message: string } | undefined }[] = [
    {
      name: 'other users pass untouched',
      req: { resource: 'nodes', op: 'UPDATE', name: 'n2', user: { name: 'alice', groups: [] } },
      want: undefined,
    },
    {
      name: 'a node name without the nodes group is no node',
      req: { resource: 'nodes', op: 'DELETE', name: 'n2', user: { name: 'system:node:n1', groups: [] } },
      want: undefined,
    },
    {
      name: 'a node user naming no node',
      req: { resource: 'nodes', op: 'DELETE', name: 'x', user: { name: 'system:node:', groups: ['system:nodes'] } },
      want: forbidden('nodes "x" is forbidden: could not determine node from user "system:node:"'),
    },
    {
      name: 'mirror pod bound to itself and owned by its Node',
      req: { resource: 'pods', op: 'CREATE', namespace: 'default', name: 'static', object: mirrorPod() },
      want: undefined,
    },
    {
      name: 'a pod without the mirror annotation',
      req: { resource: 'pods', op: 'CREATE', name: 'static', object: mirrorPod({}, { annotations: {} }) },
      want: forbidden(
        'pods "static" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
      ),
    },
    {
      name: 'a mirror pod bound to another node',
      req: { resource: 'pods', op: 'CREATE', name: 'static', object: mirrorPod({ nodeName: 'n2' }) },
      want: forbidden('pods "static" is forbidden: node "n1" can only create pods with spec.nodeName set to itself'),
    },
    {
      name: 'a mirror pod without an owner',
      req: { resource: 'pods', op: 'CREATE', name: 'static', object: mirrorPod({}, { ownerReferences: [] }) },
      want: forbidden(
        'pods "static" is forbidden: node "n1" can only create pods with an owner reference set to itself',
      ),
    },
    {
      name: 'a mirror pod with two owners',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod(
          {},
          {
            ownerReferences: [
              { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1', controller: true },
              { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1' },
            ],
          },
        ),
      },
      want: forbidden(
        'pods "static" is forbidden: node "n1" can only create pods with a single owner reference set to itself',
      ),
    },
    {
      name: 'a mirror pod owned but not controlled by its Node',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1' }] }),
      },
      want: forbidden(
        'pods "static" is forbidden: node "n1" can only create pods with a controller owner reference set to itself',
      ),
    },
    {
      name: 'a mirror pod blocking its owner’s deletion',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod(
          {},
          {
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'Node',
                name: 'n1',
                uid: 'node-uid-1',
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          },
        ),
      },
      want: forbidden('pods "static" is forbidden: node "n1" must not set blockOwnerDeletion on an owner reference'),
    },
    {
      name: 'a mirror pod owned by a stale Node uid',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod(
          {},
          { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'old', controller: true }] },
        ),
      },
      want: forbidden('pods "static" is forbidden: node n1 UID mismatch: expected old got node-uid-1'),
    },
    {
      name: 'a mirror pod with a service account',
      req: { resource: 'pods', op: 'CREATE', name: 'static', object: mirrorPod({ serviceAccountName: 'sa' }) },
      want: forbidden('pods "static" is forbidden: node "n1" can not create pods that reference a service account'),
    },
    {
      name: 'a mirror pod naming a secret in an ephemeral container',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod({ ephemeralContainers: [{ name: 'e', envFrom: [{ secretRef: { name: 's' } }] }] }),
      },
      want: forbidden('pods "static" is forbidden: node "n1" can not create pods that reference secrets'),
    },
    {
      name: 'a mirror pod naming a config map in a projected volume',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod({ volumes: [{ name: 'v', projected: { sources: [{ configMap: { name: 'cm' } }] } }] }),
      },
      want: forbidden('pods "static" is forbidden: node "n1" can not create pods that reference configmaps'),
    },
    {
      name: 'a mirror pod naming a cluster trust bundle',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod({
          volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }],
        }),
      },
      want: forbidden('pods "static" is forbidden: node "n1" can not create pods that reference clustertrustbundles'),
    },
    {
      name: 'a mirror pod naming a claim',
      req: {
        resource: 'pods',
        op: 'CREATE',
        name: 'static',
        object: mirrorPod({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }),
      },
      want: forbidden(
        'pods "static" is forbidden: node "n1" can not create pods that reference persistentvolumeclaims',
      ),
    },
    {
      name: 'deleting its own pod',
      req: { resource: 'pods', op: 'DELETE', namespace: 'default', name: 'mine', old: pods['default/mine'] },
      want: undefined,
    },
    {
      name: 'deleting another node’s pod',
      req: { resource: 'pods', op: 'DELETE', namespace: 'default', name: 'theirs', old: pods['default/theirs'] },
      want: forbidden('pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself'),
    },
    {
      name: 'updating a pod',
      req: { resource: 'pods', op: 'UPDATE', name: 'mine', object: pods['default/mine'], old: pods['default/mine'] },
      want: forbidden(
        'pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
      ),
    },
    {
      name: 'status of its own pod',
      req: {
        resource: 'pods',
        subresource: 'status',
        op: 'UPDATE',
        name: 'mine',
        object: { ...pods['default/mine'], status: { phase: 'Running' } },
        old: pods['default/mine'],
      },
      want: undefined,
    },
    {
      name: 'status of another node’s pod',
      req: {
        resource: 'pods',
        subresource: 'status',
        op: 'UPDATE',
        name: 'theirs',
        object: pods['default/theirs'],
        old: pods['default/theirs'],
      },
      want: forbidden(
        'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      ),
    },
    {
      name: 'labels through pod status',
      req: {
        resource: 'pods',
        subresource: 'status',
        op: 'UPDATE',
        name: 'mine',
        object: obj('Pod', { name: 'mine', labels: { a: 'b' } }, { spec: { nodeName: 'n1' } }),
        old: pods['default/mine'],
      },
      want: forbidden('pods "mine" is forbidden: node "n1" cannot update labels through pod status'),
    },
    {
      name: 'resource claim statuses through pod status',
      req: {
        resource: 'pods',
        subresource: 'status',
        op: 'UPDATE',
        name: 'mine',
        object: obj(
          'Pod',
          { name: 'mine' },
          { spec: { nodeName: 'n1' }, status: { resourceClaimStatuses: [{ name: 'c', resourceClaimName: 'x' }] } },
        ),
        old: pods['default/mine'],
      },
      want: forbidden('pods "mine" is forbidden: node "n1" cannot update resource claim statues'),
    },
    {
      name: 'evicting its own pod',
      req: {
        resource: 'pods',
        subresource: 'eviction',
        op: 'CREATE',
        namespace: 'default',
        name: 'mine',
        object: obj('Eviction', { name: 'mine' }),
      },
      want: undefined,
    },
    {
      name: 'evicting another node’s pod',
      req: {
        resource: 'pods',
        subresource: 'eviction',
        op: 'CREATE',
        namespace: 'default',
        name: 'theirs',
        object: obj('Eviction', { name: 'theirs' }),
      },
      want: forbidden('pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself'),
    },
    {
      name: 'evicting a missing pod: the lister’s 404',
      req: {
        resource: 'pods',
        subresource: 'eviction',
        op: 'CREATE',
        namespace: 'default',
        name: 'gone',
        object: obj('Eviction', { name: 'gone' }),
      },
      want: { code: 404, message: 'pod "gone" not found' },
    },
    {
      name: 'binding a pod',
      req: { resource: 'pods', subresource: 'binding', op: 'CREATE', name: 'mine', object: obj('Binding', {}) },
      want: forbidden(
        `pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
      ),
    },
    {
      name: 'registering itself',
      req: { resource: 'nodes', op: 'CREATE', name: 'n1', object: node('n1') },
      want: undefined,
    },
    {
      name: 'registering another node',
      req: { resource: 'nodes', op: 'CREATE', name: 'n2', object: node('n2') },
      want: forbidden('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"'),
    },
    {
      name: 'registering with a config source',
      req: { resource: 'nodes', op: 'CREATE', name: 'n1', object: node('n1', {}, { configSource: { configMap: {} } }) },
      want: forbidden('nodes "n1" is forbidden: node "n1" is not allowed to create pods with a non-nil configSource'),
    },
    {
      name: 'registering with kubelet labels and a custom one',
      req: {
        resource: 'nodes',
        op: 'CREATE',
        name: 'n1',
        object: node('n1', {
          labels: {
            'kubernetes.io/hostname': 'n1',
            'topology.kubernetes.io/zone': 'z',
            'node.kubernetes.io/exclude-from-external-load-balancers': '',
            'kubelet.kubernetes.io/x': 'y',
            'example.com/rack': '7',
          },
        }),
      },
      want: undefined,
    },
    {
      name: 'registering with reserved labels',
      req: {
        resource: 'nodes',
        op: 'CREATE',
        name: 'n1',
        object: node('n1', {
          labels: {
            'node-role.kubernetes.io/control-plane': '',
            'node-restriction.kubernetes.io/pool': 'a',
            'example.k8s.io/x': '',
          },
        }),
      },
      want: forbidden(
        'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: example.k8s.io/x, node-restriction.kubernetes.io/pool, node-role.kubernetes.io/control-plane',
      ),
    },
    {
      name: 'changing its taints',
      req: {
        resource: 'nodes',
        subresource: 'status',
        op: 'UPDATE',
        name: 'n1',
        object: node('n1', {}, { taints: [] }),
        old: node('n1', {}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      },
      want: forbidden('nodes "n1" is forbidden: node "n1" is not allowed to modify taints'),
    },
    {
      name: 'an empty taint list is no change',
      req: { resource: 'nodes', op: 'UPDATE', name: 'n1', object: node('n1', {}, { taints: [] }), old: node('n1') },
      want: undefined,
    },
    {
      name: 'a new config source',
      req: {
        resource: 'nodes',
        op: 'UPDATE',
        name: 'n1',
        object: node('n1', {}, { configSource: { configMap: { name: 'c' } } }),
        old: node('n1'),
      },
      want: forbidden(
        'nodes "n1" is forbidden: node "n1" is not allowed to update configSource to a new non-nil configSource',
      ),
    },
    {
      name: 'adding an owner',
      req: {
        resource: 'nodes',
        op: 'UPDATE',
        name: 'n1',
        object: node('n1', { ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'x', uid: 'u' }] }),
        old: node('n1'),
      },
      want: forbidden('nodes "n1" is forbidden: node "n1" is not allowed to modify ownerReferences'),
    },
    {
      name: 'removing a reserved label',
      req: {
        resource: 'nodes',
        op: 'UPDATE',
        name: 'n1',
        object: node('n1'),
        old: node('n1', { labels: { 'node-restriction.kubernetes.io/pool': 'a' } }),
      },
      want: forbidden('nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool'),
    },
    {
      name: 'a PVC spec write',
      req: { resource: 'persistentvolumeclaims', op: 'UPDATE', name: 'c', object: obj('PVC', {}), old: obj('PVC', {}) },
      want: forbidden('persistentvolumeclaims "c" is forbidden: may only update PVC status'),
    },
    {
      name: 'PVC status capacity, conditions and allocated resources',
      req: {
        resource: 'persistentvolumeclaims',
        subresource: 'status',
        op: 'UPDATE',
        name: 'c',
        object: obj(
          'PersistentVolumeClaim',
          { name: 'c', resourceVersion: '9' },
          {
            status: {
              capacity: { storage: '2Gi' },
              conditions: [{ type: 'Resizing' }],
              allocatedResources: { storage: '2Gi' },
            },
          },
        ),
        old: obj('PersistentVolumeClaim', { name: 'c', resourceVersion: '8' }, { status: { phase: '' } }),
      },
      want: undefined,
    },
    {
      name: 'PVC status with a label',
      req: {
        resource: 'persistentvolumeclaims',
        subresource: 'status',
        op: 'UPDATE',
        name: 'c',
        object: obj('PersistentVolumeClaim', { name: 'c', labels: { a: 'b' } }, { status: { phase: 'Bound' } }),
        old: obj('PersistentVolumeClaim', { name: 'c' }),
      },
      want: forbidden(
        'persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.quantity and status.conditions: metadata.labels, status',
      ),
    },
    {
      name: 'a token bound to its pod',
      req: {
        resource: 'serviceaccounts',
        subresource: 'token',
        op: 'CREATE',
        namespace: 'default',
        name: 'default',
        object: obj(
          'TokenRequest',
          {},
          { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid-1' } } },
        ),
      },
      want: undefined,
    },
    {
      name: 'a token bound to nothing',
      req: {
        resource: 'serviceaccounts',
        subresource: 'token',
        op: 'CREATE',
        namespace: 'default',
        name: 'default',
        object: obj('TokenRequest', {}, { spec: { audiences: ['a'] } }),
      },
      want: forbidden('serviceaccounts "default" is forbidden: node requested token not bound to a pod'),
    },
    {
      name: 'a token bound to a pod without uid',
      req: {
        resource: 'serviceaccounts',
        subresource: 'token',
        op: 'CREATE',
        namespace: 'default',
        name: 'default',
        object: obj('TokenRequest', {}, { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine' } } }),
      },
      want: forbidden('serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid'),
    },
    {
      name: 'a token bound to a recreated pod',
      req: {
        resource: 'serviceaccounts',
        subresource: 'token',
        op: 'CREATE',
        namespace: 'default',
        name: 'default',
        object: obj(
          'TokenRequest',
          {},
          { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'u0' } } },
        ),
      },
      want: forbidden(
        'serviceaccounts "default" is forbidden: the UID in the bound object reference (u0) does not match the UID in record. The object might have been deleted and then recreated',
      ),
    },
    {
      name: 'a token bound to another node’s pod',
      req: {
        resource: 'serviceaccounts',
        subresource: 'token',
        op: 'CREATE',
        namespace: 'default',
        name: 'default',
        object: obj(
          'TokenRequest',
          {},
          { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'pod-uid-2' } } },
        ),
      },
      want: forbidden(
        'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node',
      ),
    },
    {
      name: 'its lease',
      req: {
        group: 'coordination.k8s.io',
        resource: 'leases',
        op: 'CREATE',
        namespace: 'kube-node-lease',
        name: 'n1',
        object: obj('Lease', { name: 'n1' }),
      },
      want: undefined,
    },
    {
      name: 'a lease elsewhere',
      req: { group: 'coordination.k8s.io', resource: 'leases', op: 'UPDATE', namespace: 'default', name: 'n1' },
      want: forbidden(
        'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
      ),
    },
    {
      name: 'another node’s lease',
      req: { group: 'coordination.k8s.io', resource: 'leases', op: 'DELETE', namespace: 'kube-node-lease', name: 'n2' },
      want: forbidden(
        'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
      ),
    },
    {
      name: 'another node’s CSINode',
      req: {
        group: 'storage.k8s.io',
        resource: 'csinodes',
        op: 'CREATE',
        name: 'n2',
        object: obj('CSINode', { name: 'n2' }),
      },
      want: forbidden(
        'csinodes.storage.k8s.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
      ),
    },
    {
      name: 'a ResourceSlice of another node',
      req: {
        group: 'resource.k8s.io',
        resource: 'resourceslices',
        op: 'DELETE',
        name: 's',
        old: obj('ResourceSlice', { name: 's' }, { spec: { nodeName: 'n2' } }),
      },
      want: forbidden(
        'resourceslices.resource.k8s.io "s" is forbidden: can only delete ResourceSlice with the same NodeName as the requesting node',
      ),
    },
    {
      name: 'other resources pass',
      req: { resource: 'configmaps', op: 'CREATE', name: 'c', object: obj('ConfigMap', { name: 'c' }) },
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      assert.deepEqual(await outcome(c.req), c.want);
    });
  }

  it('under the orch.io profile the node-lease namespace and reserved labels follow the domain', async () => {
    assert.deepEqual(
      await outcome(
        { group: 'coordination.orch.io', resource: 'leases', op: 'UPDATE', namespace: 'default', name: 'n1' },
        ORCH,
      ),
      forbidden(
        'leases.coordination.orch.io "n1" is forbidden: can only access leases in the "orch-node-lease" system namespace',
      ),
    );
    const policy = nodeLabelPolicy(ORCH);
    assert.deepEqual(
      forbiddenLabels(policy, ['orch.io/hostname', 'node.orch.io/x', 'node-role.orch.io/y', 'kubernetes.io/z']),
      ['node-role.orch.io/y'],
    );
  });
});

describe('NodeRestriction comparisons', () => {
  it('modified labels: added, removed and changed keys', () => {
    assert.deepEqual(modifiedLabels({ a: '1', b: '2', c: '3' }, { a: '1', b: 'x', d: '4' }).sort(), ['b', 'c', 'd']);
    assert.deepEqual(modifiedLabels(undefined, {}), []);
  });
  const equal: [unknown, unknown, boolean][] = [
    [undefined, [], true],
    [null, {}, true],
    [{ a: [] }, {}, true],
    [{ a: '' }, {}, true],
    [[{ key: 'k' }], [{ key: 'k', value: '' }], true],
    [[{ key: 'k' }], [{ key: 'j' }], false],
    [{ a: false }, {}, false],
  ];
  for (const [a, b, want] of equal) {
    it(`semanticEqual(${JSON.stringify(a)}, ${JSON.stringify(b)}) is ${want}`, () => {
      assert.equal(semanticEqual(a, b), want);
    });
  }
});
