import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import type { Attributes } from '../../apis/request/authorization-attributes.js';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import { requestSelectorAttributes } from '../../apis/request/selector-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { NodeAuthorizer } from './node-authorizer.js';
import { NodeGraph } from './node-graph.js';

const domain = apiDomain('orch.io');
const node1: UserInfo = Object.freeze({ name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });

interface Req {
  verb: string;
  group?: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  fieldSelector?: string;
  user?: UserInfo;
}

function attrs(r: Req): Attributes {
  return {
    user: r.user ?? node1,
    verb: r.verb,
    isResourceRequest: true,
    path: '',
    namespace: r.namespace ?? '',
    apiGroup: r.group ?? '',
    apiVersion: 'v1',
    resource: r.resource,
    subresource: r.subresource ?? '',
    name: r.name ?? '',
    ...(r.fieldSelector ? requestSelectorAttributes(r.fieldSelector, '') : NO_SELECTORS),
  };
}

function graph(): NodeGraph {
  const g = new NodeGraph();
  const pod = { uid: 'u', configMaps: [], persistentVolumeClaims: [], resourceClaims: [], serviceAccount: '' };
  g.setPod({
    ...pod,
    namespace: 'app',
    name: 'web',
    nodeName: 'n1',
    secrets: ['tls'],
    configMaps: ['conf'],
    persistentVolumeClaims: ['data'],
    resourceClaims: ['gpu'],
    serviceAccount: 'runner',
  });
  g.setPod({ ...pod, namespace: 'app', name: 'other', nodeName: 'n2', secrets: ['other-tls'] });
  g.setPersistentVolume({ name: 'pv1', claim: { namespace: 'app', name: 'data' }, secrets: [] });
  g.setVolumeAttachment('va1', 'n1');
  g.setResourceSlice('s1', 'n1');
  g.setResourceSlice('s2', 'n2');
  return g;
}

const STORAGE = domain.group('storage');
const COORDINATION = domain.group('coordination');
const RESOURCE = domain.group('resource');
const NO_RELATION = "no relationship found between node 'n1' and this object";
const LEASES = domain.nodeLeaseNamespace;

type Want = 'allow' | string;

/** [name, request, 'allow' or the no-opinion reason]. */
const cases: [string, Req, Want][] = [
  ['secret of its pod', { verb: 'get', resource: 'secrets', namespace: 'app', name: 'tls' }, 'allow'],
  ['watch of one secret', { verb: 'watch', resource: 'secrets', namespace: 'app', name: 'tls' }, 'allow'],
  [
    'secret of another node’s pod',
    { verb: 'get', resource: 'secrets', namespace: 'app', name: 'other-tls' },
    NO_RELATION,
  ],
  ['unknown secret', { verb: 'get', resource: 'secrets', namespace: 'app', name: 'nope' }, NO_RELATION],
  ['secret create', { verb: 'create', resource: 'secrets', namespace: 'app' }, 'can only read resources of this type'],
  ['secret list', { verb: 'list', resource: 'secrets', namespace: 'app' }, 'No Object name found'],
  ['secret list everywhere', { verb: 'list', resource: 'secrets' }, 'can only read namespaced object of this type'],
  [
    'secret sub-resource',
    { verb: 'get', resource: 'secrets', subresource: 'x', namespace: 'app', name: 'tls' },
    'cannot read subresource',
  ],
  ['config map of its pod', { verb: 'get', resource: 'configmaps', namespace: 'app', name: 'conf' }, 'allow'],
  ['PVC of its pod', { verb: 'get', resource: 'persistentvolumeclaims', namespace: 'app', name: 'data' }, 'allow'],
  [
    'PVC list',
    { verb: 'list', resource: 'persistentvolumeclaims', namespace: 'app', name: 'data' },
    'can only get individual resources of this type',
  ],
  [
    'PVC status update',
    { verb: 'patch', resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'app', name: 'data' },
    'allow',
  ],
  [
    'PVC status get',
    { verb: 'get', resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'app', name: 'data' },
    'can only get/update/patch this type',
  ],
  ['PV of its claim', { verb: 'get', resource: 'persistentvolumes', name: 'pv1' }, 'allow'],
  ['other PV', { verb: 'get', resource: 'persistentvolumes', name: 'pv2' }, NO_RELATION],
  [
    'ResourceClaim of its pod',
    { verb: 'get', group: RESOURCE, resource: 'resourceclaims', namespace: 'app', name: 'gpu' },
    'allow',
  ],
  ['its VolumeAttachment', { verb: 'get', group: STORAGE, resource: 'volumeattachments', name: 'va1' }, 'allow'],
  [
    'VolumeAttachment list',
    { verb: 'list', group: STORAGE, resource: 'volumeattachments' },
    'can only get individual resources of this type',
  ],
  [
    'token of its pod’s service account',
    { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'app', name: 'runner' },
    'allow',
  ],
  [
    'token of another service account',
    { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'app', name: 'default' },
    NO_RELATION,
  ],
  [
    'service account get',
    { verb: 'get', resource: 'serviceaccounts', namespace: 'app', name: 'runner' },
    'can only create tokens for individual service accounts',
  ],
  [
    'service account create with a name',
    { verb: 'create', resource: 'serviceaccounts', namespace: 'app', name: 'runner' },
    'can only create token subresource of serviceaccount',
  ],
  ['its lease', { verb: 'update', group: COORDINATION, resource: 'leases', namespace: LEASES, name: 'n1' }, 'allow'],
  ['lease create', { verb: 'create', group: COORDINATION, resource: 'leases', namespace: LEASES }, 'allow'],
  [
    'another node’s lease',
    { verb: 'get', group: COORDINATION, resource: 'leases', namespace: LEASES, name: 'n2' },
    'can only access node lease with the same name as the requesting node',
  ],
  [
    'lease elsewhere',
    { verb: 'get', group: COORDINATION, resource: 'leases', namespace: 'app', name: 'n1' },
    `can only access leases in the "${LEASES}" system namespace`,
  ],
  [
    'lease list',
    { verb: 'list', group: COORDINATION, resource: 'leases', namespace: LEASES },
    'can only get, create, update, patch, or delete a node lease',
  ],
  ['its CSINode', { verb: 'patch', group: STORAGE, resource: 'csinodes', name: 'n1' }, 'allow'],
  [
    'another CSINode',
    { verb: 'get', group: STORAGE, resource: 'csinodes', name: 'n2' },
    'can only access CSINode with the same name as the requesting node',
  ],
  [
    'CSINode list',
    { verb: 'list', group: STORAGE, resource: 'csinodes' },
    'can only get, create, update, patch, or delete a CSINode',
  ],
  [
    'CSINode sub-resource',
    { verb: 'get', group: STORAGE, resource: 'csinodes', subresource: 'x', name: 'n1' },
    'cannot authorize CSINode subresources',
  ],
  ['its Node', { verb: 'get', resource: 'nodes', name: 'n1' }, 'allow'],
  ['its Node by field selector', { verb: 'watch', resource: 'nodes', name: 'n1' }, 'allow'],
  [
    'another Node',
    { verb: 'get', resource: 'nodes', name: 'n2' },
    "node 'n1' cannot read 'n2', only its own Node object",
  ],
  ['all Nodes', { verb: 'list', resource: 'nodes' }, "node 'n1' cannot read all nodes, only its own Node object"],
  ['Node create', { verb: 'create', resource: 'nodes' }, 'allow'],
  ['Node status patch', { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }, 'allow'],
  ['Node delete', { verb: 'delete', resource: 'nodes', name: 'n1' }, ''],
  ['its pod', { verb: 'get', resource: 'pods', namespace: 'app', name: 'web' }, 'allow'],
  ['another node’s pod', { verb: 'get', resource: 'pods', namespace: 'app', name: 'other' }, NO_RELATION],
  ['its pods by spec.nodeName', { verb: 'list', resource: 'pods', fieldSelector: 'spec.nodeName=n1' }, 'allow'],
  ['its pods by spec.nodeName==', { verb: 'watch', resource: 'pods', fieldSelector: 'spec.nodeName==n1' }, 'allow'],
  [
    'another node’s pods',
    { verb: 'list', resource: 'pods', fieldSelector: 'spec.nodeName=n2' },
    'can only list/watch pods with spec.nodeName field selector',
  ],
  [
    'pods not equal to',
    { verb: 'list', resource: 'pods', fieldSelector: 'spec.nodeName!=n1' },
    'can only list/watch pods with spec.nodeName field selector',
  ],
  ['all pods', { verb: 'list', resource: 'pods' }, 'can only list/watch pods with spec.nodeName field selector'],
  ['one of its pods by name', { verb: 'watch', resource: 'pods', namespace: 'app', name: 'web' }, 'allow'],
  ['mirror pod create', { verb: 'create', resource: 'pods', namespace: 'app' }, 'allow'],
  [
    'pod status update',
    { verb: 'update', resource: 'pods', subresource: 'status', namespace: 'app', name: 'x' },
    'allow',
  ],
  ['pod eviction', { verb: 'create', resource: 'pods', subresource: 'eviction', namespace: 'app', name: 'x' }, 'allow'],
  ['pod exec', { verb: 'create', resource: 'pods', subresource: 'exec', namespace: 'app', name: 'web' }, ''],
  ['pod update', { verb: 'update', resource: 'pods', namespace: 'app', name: 'web' }, ''],
  [
    'its ResourceSlices',
    { verb: 'list', group: RESOURCE, resource: 'resourceslices', fieldSelector: 'spec.nodeName=n1' },
    'allow',
  ],
  [
    'all ResourceSlices',
    { verb: 'deletecollection', group: RESOURCE, resource: 'resourceslices' },
    'can only list/watch/deletecollection resourceslices with nodeName field selector',
  ],
  ['its ResourceSlice', { verb: 'update', group: RESOURCE, resource: 'resourceslices', name: 's1' }, 'allow'],
  ['another ResourceSlice', { verb: 'get', group: RESOURCE, resource: 'resourceslices', name: 's2' }, NO_RELATION],
  ['ResourceSlice create', { verb: 'create', group: RESOURCE, resource: 'resourceslices' }, 'allow'],
  [
    'ResourceSlice other verb',
    { verb: 'escalate', group: RESOURCE, resource: 'resourceslices', name: 's1' },
    'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
  ],
  [
    'ResourceSlice sub-resource',
    { verb: 'get', group: RESOURCE, resource: 'resourceslices', subresource: 'status', name: 's1' },
    'cannot authorize ResourceSlice subresources',
  ],
  ['events (static rules)', { verb: 'create', resource: 'events', namespace: 'app' }, 'allow'],
  ['services (static rules)', { verb: 'watch', resource: 'services' }, 'allow'],
  ['endpoints get (static rules)', { verb: 'get', resource: 'endpoints', namespace: 'app', name: 'e' }, 'allow'],
  ['endpoints list (static rules)', { verb: 'list', resource: 'endpoints', namespace: 'app' }, ''],
  [
    'token reviews (static rules)',
    { verb: 'create', group: domain.group('authentication'), resource: 'tokenreviews' },
    'allow',
  ],
  [
    'CSRs (static rules)',
    { verb: 'create', group: domain.group('certificates'), resource: 'certificatesigningrequests' },
    'allow',
  ],
  [
    'deployments (static rules)',
    { verb: 'get', group: 'apps', resource: 'deployments', namespace: 'app', name: 'd' },
    '',
  ],
  [
    'not a node',
    {
      verb: 'get',
      resource: 'secrets',
      namespace: 'app',
      name: 'tls',
      user: { name: 'alice', groups: ['system:nodes'] },
    },
    '',
  ],
  [
    'node name without the group',
    { verb: 'get', resource: 'secrets', namespace: 'app', name: 'tls', user: { name: 'system:node:n1', groups: [] } },
    '',
  ],
  [
    'node without a name',
    { verb: 'get', resource: 'nodes', name: 'n1', user: { name: 'system:node:', groups: ['system:nodes'] } },
    'unknown node for user "system:node:"',
  ],
];

describe('NodeAuthorizer', () => {
  const authz = new NodeAuthorizer({ graph: graph(), domain, withSelectors: true });
  for (const [name, req, want] of cases) {
    it(name, () => {
      const r = authz.decide(attrs(req));
      if (want === 'allow') assert.deepEqual(r, { decision: 'allow', reason: '' });
      else assert.deepEqual(r, { decision: 'no-opinion', reason: want });
    });
  }

  it('without AuthorizeNodeWithSelectors, nodes and pods follow the static rules', () => {
    const open = new NodeAuthorizer({ graph: graph(), domain, withSelectors: false });
    for (const req of [
      { verb: 'list', resource: 'nodes' },
      { verb: 'get', resource: 'nodes', name: 'n2' },
      { verb: 'list', resource: 'pods' },
      { verb: 'get', resource: 'pods', namespace: 'app', name: 'other' },
      { verb: 'list', group: RESOURCE, resource: 'resourceslices' },
    ]) {
      assert.equal(open.decide(attrs(req)).decision, 'allow', JSON.stringify(req));
    }
    assert.deepEqual(open.decide(attrs({ verb: 'delete', resource: 'nodes', name: 'n1' })), {
      decision: 'no-opinion',
      reason: '',
    });
  });

  it('non-resource requests follow the static rules (none for nodes)', () => {
    const r = authz.decide({ ...attrs({ verb: 'get', resource: '' }), isResourceRequest: false, path: '/healthz' });
    assert.equal(r.decision, 'no-opinion');
  });

  it('lists no rules: incomplete for nodes, nothing for anyone else', async () => {
    assert.deepEqual(await authz.rulesFor(node1), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      errors: ['node authorizer does not support user rule resolution'],
    });
    assert.deepEqual(await authz.rulesFor({ name: 'alice', groups: [] }), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
      errors: [],
    });
  });

  it('decides from the graph as it changes', () => {
    const g = graph();
    const a = new NodeAuthorizer({ graph: g, domain, withSelectors: true });
    const get = attrs({ verb: 'get', resource: 'secrets', namespace: 'app', name: 'tls' });
    assert.equal(a.decide(get).decision, 'allow');
    g.deletePod('app', 'web');
    assert.equal(a.decide(get).decision, 'no-opinion');
  });
});
