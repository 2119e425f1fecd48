import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Pod } from '../../apis/core/pod-types.js';
import type { EndpointSlice } from '../../apis/discovery/endpoint-slice-types.js';
import type { ApiObject } from '../../apis/object.js';
import { markPodRunning, type WorkloadFixture, workloadFixture } from '../replicaset/testing/workload-fixture.js';
import { waitFor } from '../testing/controller-fixture.js';
import { sliceNames } from './desired-endpoints.js';
import { endpointSliceController } from './endpointslice-controller.js';

const signal = new AbortController().signal;
const NAMES = sliceNames(ORCH_DOMAIN);
const GROUP = ORCH_DOMAIN.group('discovery');

function service(name: string, spec: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: { team: 'blue' } },
    spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 'http' }], ipFamilies: ['IPv4'], ...spec },
  };
}

describe('endpointslice controller', () => {
  let f: WorkloadFixture;
  const ns = 'work';
  const pods = () => f.rc('', 'pods');
  const slicesOf = async (svc: string) =>
    ((await f.list(GROUP, 'endpointslices', ns)) as EndpointSlice[]).filter(
      (s) => s.metadata.labels?.[NAMES.serviceName] === svc,
    );
  const endpointsOf = async (svc: string) =>
    (await slicesOf(svc))
      .flatMap((s) => s.endpoints ?? [])
      .map((e) => ({ ip: e.addresses?.[0], pod: e.targetRef?.name, ...e.conditions }))
      .sort((a, b) => ((a.pod ?? '') < (b.pod ?? '') ? -1 : 1));

  async function pod(
    name: string,
    app: string,
    o: { ip?: string; ready?: boolean; finalizer?: boolean; nodeName?: string } = {},
  ) {
    const created = (await pods().create(
      ns,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app }, ...(o.finalizer ? { finalizers: ['example.com/keep'] } : {}) },
        spec: {
          containers: [{ name: 'c', image: 'i', ports: [{ name: 'http', containerPort: 8080 }] }],
          ...(o.nodeName ? { nodeName: o.nodeName } : {}),
        },
      },
      signal,
    )) as Pod;
    if (o.ip) await markPodRunning(pods(), created, { ip: o.ip, ready: o.ready, now: f.clock.now() });
  }

  before(async () => {
    f = await workloadFixture([endpointSliceController], {
      config: { EndpointSliceController: { MaxEndpointsPerSlice: 2 } },
    });
  });
  after(() => f.stop());

  it('keeps a placeholder slice for a service without endpoints', async () => {
    const svc = await f.rc('', 'services').create(ns, service('web'), signal);
    const [slice] = await waitFor('placeholder', async () => {
      const s = await slicesOf('web');
      return s.length === 1 && s;
    });
    assert.match(slice.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
    // The registries allocate no cluster IPs: the service is headless.
    assert.deepEqual(slice.metadata.labels, {
      team: 'blue',
      [NAMES.headless]: '',
      [NAMES.serviceName]: 'web',
      [NAMES.managedBy]: `endpointslice-controller.${ORCH_DOMAIN.name}`,
    });
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.endpoints ?? [], []);
    assert.equal(slice.metadata.ownerReferences?.[0]?.uid, svc.metadata.uid);
    assert.equal(slice.metadata.ownerReferences?.[0]?.controller, true);
  });

  it('lists pods with IPs, named ports resolved, conditions ready/serving/terminating', async () => {
    await pod('web-a', 'web', { ip: '10.1.0.1' });
    await pod('web-b', 'web', { ip: '10.1.0.2', ready: false });
    await pod('web-c', 'web');
    await pod('web-d', 'web', { ip: '10.1.0.4', finalizer: true });
    await pods().delete(ns, 'web-d', {}, signal);
    const eps = await waitFor('endpoints', async () => {
      const e = await endpointsOf('web');
      return e.length === 3 && e.find((x) => x.pod === 'web-d')?.terminating && e;
    });
    assert.deepEqual(eps, [
      { ip: '10.1.0.1', pod: 'web-a', ready: true, serving: true, terminating: false },
      { ip: '10.1.0.2', pod: 'web-b', ready: false, serving: false, terminating: false },
      { ip: '10.1.0.4', pod: 'web-d', ready: false, serving: true, terminating: true },
    ]);
    const slices = await slicesOf('web');
    assert.equal(slices.length, 2, 'at most 2 endpoints per slice');
    for (const s of slices) assert.deepEqual(s.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
    await pods().patch(ns, 'web-d', 'merge', { metadata: { finalizers: null } }, signal);
  });

  it('follows pods: deleted or relabelled pods leave, new ones join', async () => {
    await pods().delete(ns, 'web-b', {}, signal);
    await pods().patch(ns, 'web-a', 'merge', { metadata: { labels: { app: 'other' } } }, signal);
    await pod('web-e', 'web', { ip: '10.1.0.5' });
    const eps = await waitFor('followed', async () => {
      const e = await endpointsOf('web');
      return e.length === 1 && e[0].pod === 'web-e' && e;
    });
    assert.equal(eps[0].ip, '10.1.0.5');
    assert.equal((await slicesOf('web')).length, 1);
  });

  it('skips pods bound to a missing node until it exists', async () => {
    await pod('web-f', 'web', { ip: '10.1.0.6', nodeName: 'n7' });
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!(await endpointsOf('web')).some((e) => e.pod === 'web-f'));
    await f.rc('', 'nodes').create(
      '',
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n7', labels: { [ORCH_DOMAIN.key('topology', 'zone')]: 'z1' } },
      },
      signal,
    );
    await waitFor('joined', async () => (await endpointsOf('web')).some((e) => e.pod === 'web-f'), 15_000);
    const slice = (await slicesOf('web')).find((s) => s.endpoints?.some((e) => e.targetRef?.name === 'web-f'));
    const ep = slice?.endpoints?.find((e) => e.targetRef?.name === 'web-f');
    assert.equal(ep?.nodeName, 'n7');
    assert.equal(ep?.zone, 'z1');
  });

  it('leaves slices it does not manage and services without a selector alone', async () => {
    await f.rc('', 'services').create(ns, { ...service('manual'), spec: { ports: [{ port: 80 }] } }, signal);
    const manual: EndpointSlice = {
      apiVersion: `${GROUP}/v1`,
      kind: 'EndpointSlice',
      metadata: { name: 'manual-1', labels: { [NAMES.serviceName]: 'manual' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['192.0.2.1'] }],
      ports: [{ port: 80 }],
    };
    await f.rc(GROUP, 'endpointslices').create(ns, manual, signal);
    // A foreign slice naming a selector service is not this controller's either.
    await f
      .rc(GROUP, 'endpointslices')
      .create(ns, { ...manual, metadata: { name: 'web-foreign', labels: { [NAMES.serviceName]: 'web' } } }, signal);
    await pod('web-g', 'web', { ip: '10.1.0.7' });
    await waitFor('web-g', async () => (await endpointsOf('web')).some((e) => e.pod === 'web-g'));
    const slices = await slicesOf('manual');
    assert.deepEqual(
      slices.map((s) => [s.metadata.name, s.endpoints?.[0]?.addresses]),
      [['manual-1', ['192.0.2.1']]],
    );
    const foreign = await f.rc(GROUP, 'endpointslices').get(ns, 'web-foreign', signal);
    assert.deepEqual((foreign as EndpointSlice).endpoints?.[0]?.addresses, ['192.0.2.1']);
  });
});
